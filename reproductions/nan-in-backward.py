"""nan-in-backward: anomaly detection stops at the backward function that produced NaN.

A loss takes the square root of a value that reaches zero, so the gradient is inf/NaN.
With torch.autograd.set_detect_anomaly(True), backward raises naming the function, and
the forward traceback of the operation is printed as a warning first. Two DDP ranks (gloo).
Launch: torchrun --nproc-per-node 2 reproductions/nan-in-backward.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    torch.autograd.set_detect_anomaly(True)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Linear(4, 1))
    x = torch.randn(8, 4)
    pred = model(x)
    loss = (pred - pred.detach()).pow(2).sum().sqrt()  # sqrt(0): the gradient is NaN
    loss.backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
