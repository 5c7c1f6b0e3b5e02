"""dcp-checkpoint-error: torch.distributed.checkpoint.load finds keys the checkpoint lacks.

Two ranks save a DDP-wrapped model's state_dict with dcp.save (keys 'module.0.weight', ...),
then load it into the unwrapped model (keys '0.weight', ...). Every rank's load planner
raises 'Missing key in checkpoint state_dict', and dcp gathers them into one
CheckpointException that names every failing rank.
Launch: torchrun --nproc-per-node 2 reproductions/dcp-checkpoint-error.py
"""
import atexit
import os
import shutil
import tempfile

import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("gloo")
    path = [tempfile.mkdtemp(prefix="dcp-repro-") if dist.get_rank() == 0 else None]
    if dist.get_rank() == 0:  # the load fails after every rank has read the metadata
        atexit.register(shutil.rmtree, path[0], ignore_errors=True)
    dist.broadcast_object_list(path)  # one directory shared by the two local ranks
    ckpt = os.path.join(path[0], "step-100")

    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    dcp.save({"model": DDP(model).state_dict()}, checkpoint_id=ckpt)  # 'module.' prefix

    fresh = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    dcp.load({"model": fresh.state_dict()}, checkpoint_id=ckpt)  # no prefix: fails
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
