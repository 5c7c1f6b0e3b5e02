"""collective-mismatch-detected: ranks call different collectives, caught by DETAIL debug mode.

Rank 0 calls all_reduce while rank 1 calls broadcast (rank-conditional code). With
TORCH_DISTRIBUTED_DEBUG=DETAIL every collective is first checked across ranks, so the
job fails at once naming both collectives instead of hanging.
Launch: TORCH_DISTRIBUTED_DEBUG=DETAIL torchrun --nproc-per-node 2 reproductions/collective-mismatch-detected.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    t = torch.ones(4)
    if dist.get_rank() == 0:
        dist.all_reduce(t)  # rank 0: all_reduce
    else:
        dist.broadcast(t, src=0)  # rank 1: a different collective at the same point
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
