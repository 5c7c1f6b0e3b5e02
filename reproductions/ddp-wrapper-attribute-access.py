"""ddp-wrapper-attribute-access: the user's model's attribute read through the DDP wrapper.

The model has a `config` attribute and an `embed` method. After
`model = DistributedDataParallel(model)` every rank reads `model.config`, which the wrapper
does not have: `Module.__getattr__` raises
`AttributeError: 'DistributedDataParallel' object has no attribute 'config'`.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-wrapper-attribute-access.py
"""
from datetime import timedelta
from types import SimpleNamespace

import torch
import torch.distributed as dist
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(hidden=8, num_labels=2)
        self.body = nn.Linear(4, self.config.hidden)
        self.head = nn.Linear(self.config.hidden, self.config.num_labels)

    def embed(self, x):
        return torch.relu(self.body(x))

    def forward(self, x):
        return self.head(self.embed(x))


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    model = nn.parallel.DistributedDataParallel(Net())
    try:
        print(f"rank {dist.get_rank()}: labels {model.module.config.num_labels}", flush=True)  # works
        print(f"rank {dist.get_rank()}: labels {model.config.num_labels}", flush=True)  # raises
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
