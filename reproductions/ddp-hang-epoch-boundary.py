"""ddp-hang-epoch-boundary: ranks get a different number of batches in an epoch.

The dataset is split unevenly (no DistributedSampler, drop_last=False), so rank 1 has
one batch more than rank 0. Without Join, rank 1 waits forever in DDP's gradient
all-reduce for its extra batch (with Gloo: `Timed out waiting ...ms for recv operation`
after the group timeout, 5 s here). The training loop runs under
`model.join(throw_on_early_termination=True)`, which turns the hang into an immediate
error on every rank at the epoch boundary.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-hang-epoch-boundary.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=5))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Linear(4, 1))
    samples = torch.randn(10, 4)
    shard = samples[4:] if rank else samples[:4]  # 4 samples vs 6: uneven shards
    with model.join(throw_on_early_termination=True):
        for batch in shard.split(2):  # rank 0: 2 batches, rank 1: 3 batches
            model(batch).sum().backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
