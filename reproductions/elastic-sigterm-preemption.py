"""elastic-sigterm-preemption: the launcher receives SIGTERM, as on preemption or a time limit.

Slurm, Kubernetes and spot-instance reclaim stop a job by sending SIGTERM to the launcher.
Here rank 0 sends SIGTERM to its parent, the torchrun agent, while the workers train;
the agent stops the workers and raises SignalException.
Launch: torchrun --nproc-per-node 2 reproductions/elastic-sigterm-preemption.py
"""
import os
import signal
import time
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    dist.all_reduce(torch.ones(4))
    if dist.get_rank() == 0:
        os.kill(os.getppid(), signal.SIGTERM)  # the scheduler preempts the job
    time.sleep(30)  # training continues until the agent stops the workers
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
