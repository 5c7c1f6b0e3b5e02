"""ddp-all-ranks-write-same-file: every rank saves the checkpoint to the same path.

Each rank runs `with open(path, "wb") as f: torch.save(state, f)` for the same path, as
training scripts without an `if rank == 0:` guard do. The states differ in size (each rank
also saves its own sampler position, `seen_ids`), so the file ends up with rank 1's archive
written over the start of rank 0's larger one. The interleaving that real runs hit by chance
is fixed here with barriers between the two opens and the two writes, so that the result is
the same on every run; then every rank loads the checkpoint to resume.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-all-ranks-write-same-file.py
"""
import os
import tempfile
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    rank = dist.get_rank()
    path = os.path.join(tempfile.gettempdir(), f"checkpoint-{os.environ['MASTER_PORT']}.pt")
    torch.manual_seed(0)
    state = {
        "model": {f"layer{i}.weight": torch.randn(256, 256) for i in range(8)},
        "seen_ids": torch.arange(400_000 if rank == 0 else 1_000),  # per-rank sampler state
    }
    f = open(path, "wb")  # every rank truncates and opens the same file (no rank-0 guard)
    dist.barrier()
    for writer in range(dist.get_world_size()):  # rank 0 writes, then rank 1 writes over it
        if rank == writer:
            torch.save(state, f)
            f.close()
        dist.barrier()
    try:
        torch.load(path, map_location="cpu", weights_only=True)  # resume from "the" checkpoint
    finally:
        dist.barrier()
        if rank == 0:
            os.remove(path)
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
