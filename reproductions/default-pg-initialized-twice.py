"""default-pg-initialized-twice: init_process_group called a second time.

The training script initialises the default process group, then a helper (here a
`setup()` a library or a second entry point calls) initialises it again.
Launch: torchrun --nproc-per-node 2 reproductions/default-pg-initialized-twice.py
"""
from datetime import timedelta

import torch.distributed as dist


def setup():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))


def main():
    setup()
    setup()  # second call: the default group already exists


if __name__ == "__main__":
    main()
