"""tensors-on-different-devices: an operation on tensors that live on two devices.

A model built on the meta device (as with `torch.device("meta")` / deferred init) is
called with real CPU inputs before its parameters were materialised with `to_empty()` and
loaded; the matmul sees a meta weight and a CPU input. (The same check reports cuda:0 vs
cpu on a GPU machine.)
Launch: torchrun --nproc-per-node 2 reproductions/tensors-on-different-devices.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    with torch.device("meta"):
        model = nn.Linear(4, 1)  # deferred init: parameters on the meta device
    model(torch.randn(8, 4))  # forgot model.to_empty(device="cpu") and loading the weights
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
