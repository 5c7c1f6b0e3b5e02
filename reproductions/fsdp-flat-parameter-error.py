"""fsdp-flat-parameter-error: frozen and trainable parameters in one FSDP unit.

A partly frozen model (e.g. a frozen embedding with a trainable head, as in fine-tuning)
is wrapped in one FSDP unit with use_orig_params=False: FSDP cannot flatten parameters
with different `requires_grad` into one FlatParameter. Runs on CPU (gloo).
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-flat-parameter-error.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1))
    model[0].requires_grad_(False)  # frozen backbone, trainable head
    FSDP(model, device_id=torch.device("cpu"), use_orig_params=False)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
