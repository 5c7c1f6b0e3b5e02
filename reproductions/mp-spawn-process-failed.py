"""mp-spawn-process-failed: torch.multiprocessing.spawn re-raises a child's error in the parent.

Two processes are started with mp.spawn; each calls init_process_group with the env://
rendezvous but, like a script that forgot to export it, without MASTER_ADDR. The children
raise (a root cause of their own); the parent's spawn() terminates the other child and
raises ProcessRaisedException: "-- Process N terminated with the following error:" followed
by the child's traceback.
Launch: python reproductions/mp-spawn-process-failed.py
"""
import os

import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)  # env:// needs MASTER_ADDR
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.pop("MASTER_ADDR", None)  # the forgotten variable; MASTER_PORT stays set
    mp.spawn(worker, args=(2,), nprocs=2, join=True)
