"""gloo-collective-timeout: a Gloo collective fails because another rank crashed.

Rank 1 crashes (its DataLoader worker is killed, the root cause) while rank 0 waits for it
in an all_reduce; Gloo on rank 0 sees the TCP connection to rank 1 close and raises. The
reproduce block sets PET_MONITOR_INTERVAL (torchrun's --monitor-interval) to 2 s so that
torchrun does not stop rank 0 before it prints its error, as happens across nodes.
Launch: PET_MONITOR_INTERVAL=2 torchrun --nproc-per-node 2 reproductions/gloo-collective-timeout.py
"""
import os
import signal
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset


class Shard(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        if i == 4:
            os.kill(os.getpid(), signal.SIGKILL)  # rank 1's loader worker is OOM-killed
        return torch.randn(4)


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    if dist.get_rank() == 1:
        for _ in DataLoader(Shard(), batch_size=4, num_workers=1):
            pass
    dist.all_reduce(torch.ones(4))  # rank 0 waits here for rank 1
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
