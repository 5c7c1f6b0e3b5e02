"""c10d-store-based-barrier-timeout: one rank reaches init_process_group too late.

Rank 1 is late (a sleep standing in for per-rank dataset preparation or a slow node) while
rank 0 waits in the store-based barrier that ends init_process_group. Since torch 2.1 that
barrier only runs with TORCH_DIST_INIT_BARRIER=1 (it ran always in 1.8 - 2.0), and on the
CPU Gloo would otherwise fail first while connecting, so the entry's reproduce block sets
TORCH_DIST_INIT_BARRIER=1 and TORCH_GLOO_LAZY_INIT=1 (Gloo then connects at the first
collective, as NCCL does).
Launch: TORCH_DIST_INIT_BARRIER=1 TORCH_GLOO_LAZY_INIT=1 \
    torchrun --nproc-per-node 2 reproductions/c10d-store-based-barrier-timeout.py
"""
import os
import time
from datetime import timedelta

import torch.distributed as dist


def main():
    if os.environ["RANK"] == "1":
        time.sleep(30)  # late: rank 0's barrier gives up first (torchrun then stops this rank)
    dist.init_process_group("gloo", timeout=timedelta(seconds=5))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
