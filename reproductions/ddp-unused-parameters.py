"""ddp-unused-parameters: a parameter that gets no gradient, without find_unused_parameters.

Two CPU processes (gloo). The model has a branch the forward pass never uses, so DDP's
reducer waits for a gradient that never comes; the next forward raises.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-unused-parameters.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.used = nn.Linear(4, 4)
        self.unused = nn.Linear(4, 4)  # never called in forward

    def forward(self, x):
        return self.used(x)


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(Net())
    for _ in range(2):
        model(torch.randn(2, 4)).sum().backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
