"""env-rendezvous-missing-var: init_process_group() in a script started with plain `python`.

The default env:// rendezvous reads RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT from the
environment; started without torchrun (or a scheduler that sets them) RANK is missing.
Launch: python reproductions/env-rendezvous-missing-var.py   (RANK and WORLD_SIZE unset)
"""
import os
from datetime import timedelta

import torch.distributed as dist


def main():
    for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK"):
        os.environ.pop(name, None)  # as when the script is started with python, not torchrun
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))


if __name__ == "__main__":
    main()
