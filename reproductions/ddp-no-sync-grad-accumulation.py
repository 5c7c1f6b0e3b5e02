"""ddp-no-sync-grad-accumulation: gradient accumulation with no_sync() on a static_graph DDP model.

DDP(static_graph=True) and the usual accumulation loop: micro-batches under model.no_sync(),
then one synchronising micro-batch and the optimizer step. The first backward inside
no_sync() runs DDP's one-time static-graph all-reduce although no_sync() skipped
prepare_for_backward, and the reducer's internal assert fails on every rank.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-no-sync-grad-accumulation.py
"""
import contextlib

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

ACCUMULATE = 2


def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)), static_graph=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(2 * ACCUMULATE):
        sync = (step + 1) % ACCUMULATE == 0
        with contextlib.nullcontext() if sync else model.no_sync():
            model(torch.randn(4, 8)).sum().backward()
        if sync:
            opt.step()
            opt.zero_grad()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
