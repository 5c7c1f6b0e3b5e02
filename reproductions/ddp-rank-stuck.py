"""ddp-rank-stuck: one rank never reaches the barrier; monitored_barrier names it.

Rank 1 is stuck (here: a sleep standing in for a hung data read) while rank 0 waits in
`dist.monitored_barrier` with a 5 s timeout. Gloo's monitored barrier reports which rank
failed to arrive instead of hanging silently.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-rank-stuck.py
"""
import time
from datetime import timedelta

import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    if dist.get_rank() == 1:
        time.sleep(60)  # stuck: never reaches the barrier (killed by torchrun when rank 0 fails)
    dist.monitored_barrier(timeout=timedelta(seconds=5))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
