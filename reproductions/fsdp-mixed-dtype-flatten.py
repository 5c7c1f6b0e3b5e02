"""fsdp-mixed-dtype-flatten: one FSDP unit holding float32 and float64 parameters.

FSDP (use_orig_params=False) flattens every parameter of a wrapped module into one
FlatParameter, which needs a single dtype. A layer left in float64 (e.g. converted with
`.double()` by a helper) makes the wrapping fail on every rank. Runs on CPU (gloo).
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-mixed-dtype-flatten.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1).double())  # mixed dtypes
    FSDP(model, device_id=torch.device("cpu"))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
