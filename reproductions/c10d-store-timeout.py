"""c10d-store-timeout: a rank whose rendezvous store never answers.

Rank 1 of 2 starts with MASTER_ADDR/MASTER_PORT pointing at a port where no rank 0 ever
starts a TCPStore (rank 0 crashed, was never scheduled, or the address is wrong); its
client socket gives up after the process group's timeout (3 s here, tried twice).
Launch: python reproductions/c10d-store-timeout.py   (MASTER_PORT: a free port)
"""
import os
from datetime import timedelta

import torch.distributed as dist


def main():
    os.environ.update(RANK="1", WORLD_SIZE="2", LOCAL_RANK="1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    dist.init_process_group("gloo", timeout=timedelta(seconds=3))  # nobody serves the store


if __name__ == "__main__":
    main()
