"""c10d-group-not-member-or-destroyed: a collective on a subgroup names its source by group rank.

Every rank creates one single-rank group per rank (the shape of per-node or
tensor-parallel groups) and broadcasts inside its own group with `src=0`, meaning "the
first rank of my group". `src` is a global rank, so on rank 1, whose group holds only
global rank 1, torch.distributed raises `Global rank 0 is not part of group ...` before
any communication. Rank 0 is a member of its group and finishes normally.
Launch: torchrun --nproc-per-node 2 reproductions/c10d-group-not-member-or-destroyed.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    groups = [dist.new_group([r]) for r in range(dist.get_world_size())]
    t = torch.tensor([float(rank)])
    dist.broadcast(t, src=0, group=groups[rank])  # should be group_src=0 (torch >= 2.6)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
