"""gloo-connection-closed: ranks pass tensors of different sizes to one Gloo collective.

Each rank gathers its own predictions with dist.all_gather, but the number of predictions
differs per rank (4 on rank 0, 250 on rank 1). Gloo's TCP transport receives more bytes
than the buffer it posted, its enforce check in pair.cc fails on the transport thread, the
process aborts (SIGABRT, exit code -6), and the peer sees its connection reset.
Launch: torchrun --nproc-per-node 2 reproductions/gloo-connection-closed.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    preds = torch.ones(4 if rank == 0 else 250)  # per-rank length: the bug
    out = [torch.empty_like(preds) for _ in range(dist.get_world_size())]
    dist.all_gather(out, preds)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
