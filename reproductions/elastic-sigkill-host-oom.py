"""elastic-sigkill-host-oom: a worker killed by SIGKILL, as the kernel's OOM killer does.

Rank 1 sends itself SIGKILL in the middle of training (the kernel OOM killer, a cgroup
memory limit or `kill -9` look the same to torchrun). The process cannot run any handler,
so nothing is printed by the worker; torchrun reports exit code -9 and stops the others.
(Actually exhausting host memory would take the machine with it; the signal is the same.)
Launch: torchrun --nproc-per-node 2 reproductions/elastic-sigkill-host-oom.py
"""
import os
import signal
import time
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    t = torch.ones(4)
    dist.all_reduce(t)
    if dist.get_rank() == 1:
        os.kill(os.getpid(), signal.SIGKILL)  # what the OOM killer sends
    time.sleep(30)  # rank 0 keeps "training" until torchrun stops it
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
