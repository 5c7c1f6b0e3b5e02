"""ddp-mark-variable-ready-twice: one module run under two reentrant activation checkpoints.

With find_unused_parameters=True, DDP's reducer marks a parameter ready when its gradient
hook fires. Reentrant checkpointing runs a nested backward for each checkpointed call, so
the shared layer's hooks fire once per call and the second one raises.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-mark-variable-ready-twice.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Linear(8, 8)  # applied twice, each time under its own checkpoint
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        x = checkpoint(self.shared, x, use_reentrant=True)
        x = checkpoint(self.shared, x, use_reentrant=True)
        return self.head(x)


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(Net(), find_unused_parameters=True)
    x = torch.randn(4, 8, requires_grad=True)
    model(x).sum().backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
