"""ddp-state-dict-module-prefix: a checkpoint saved from the DDP wrapper, loaded into the bare model.

Rank 0 saves `ddp_model.state_dict()` (keys start with "module."), then every rank
builds a plain model for evaluation and calls `load_state_dict`, which rejects the keys.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-state-dict-module-prefix.py
"""
import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn


def build():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    ddp_model = nn.parallel.DistributedDataParallel(build())
    path = os.path.join(tempfile.gettempdir(), f"ckpt-{os.environ['MASTER_PORT']}.pt")
    if dist.get_rank() == 0:
        torch.save(ddp_model.state_dict(), path)  # the wrapper's keys: "module.0.weight", ...
    dist.barrier()
    try:
        model = build()
        model.load_state_dict(torch.load(path, weights_only=True))
    finally:
        dist.barrier()
        if dist.get_rank() == 0:
            os.remove(path)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
