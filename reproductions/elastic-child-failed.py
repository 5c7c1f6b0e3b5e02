"""elastic-child-failed: torchrun's ChildFailedError summary around a worker's real error.

The workers fail (here: a collective called before init_process_group, a root cause of
its own); the entry point is decorated with @record, so torchrun's summary carries the
first failed worker's traceback under "Root Cause (first observed failure)".
Launch: torchrun --nproc-per-node 2 reproductions/elastic-child-failed.py
"""
import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record


@record
def main():
    dist.all_reduce(torch.ones(1))  # the worker's own error; torchrun wraps it


if __name__ == "__main__":
    main()
