"""fsdp-optim-state-dict-load: resuming an FSDP2 optimizer from DCP with the plain optimizer.state_dict().

Two ranks train an FSDP2 (fully_shard) model one step and save model and optimizer with
get_state_dict + dcp.save: the optimizer state is keyed by parameter names (FQNs). The
resume path builds the state dict to load with optimizer.state_dict(), which keys the state
by parameter index (0, 1, ...), so DCP finds no 'optimizer.state.0.step' in the checkpoint.
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-optim-state-dict-load.py
"""
import atexit
import os
import shutil
import tempfile

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_state_dict
from torch.distributed.fsdp import fully_shard


def build():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    for layer in (model[0], model[2]):
        fully_shard(layer)
    fully_shard(model)
    return model, torch.optim.AdamW(model.parameters(), lr=1e-3)


def train_step(model, optim):
    model(torch.randn(4, 8)).sum().backward()
    optim.step()
    optim.zero_grad()


def main():
    dist.init_process_group("gloo")
    path = [tempfile.mkdtemp(prefix="fsdp-optim-repro-") if dist.get_rank() == 0 else None]
    if dist.get_rank() == 0:  # the load fails after every rank has read the metadata
        atexit.register(shutil.rmtree, path[0], ignore_errors=True)
    dist.broadcast_object_list(path)
    ckpt = os.path.join(path[0], "step-1")

    model, optim = build()
    train_step(model, optim)
    model_sd, optim_sd = get_state_dict(model, optim)  # FQN-keyed optimizer state
    dcp.save({"model": model_sd, "optimizer": optim_sd}, checkpoint_id=ckpt)

    model, optim = build()  # resume
    train_step(model, optim)  # the optimizer state exists now, keyed by index
    state = {"model": model.state_dict(), "optimizer": optim.state_dict()}
    dcp.load(state, checkpoint_id=ckpt)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
