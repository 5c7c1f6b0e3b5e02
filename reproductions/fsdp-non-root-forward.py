"""fsdp-non-root-forward: a nested FSDP unit runs forward before the root.

An inner layer is wrapped in its own FSDP unit and the whole model in an outer one, as
auto-wrap policies do. Calling the inner unit directly first (a probe, a reference pass, a
helper that runs one layer) lazily initialises it as a root of its own. FSDP2 (fully_shard)
refuses the later root forward with a RuntimeError; the script prints that traceback and
goes on. FSDP1 (FullyShardedDataParallel) then fails its root's lazy init with
"Non-root FSDP instance's `_is_root` should not have been set yet ...". CPU, gloo.
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-non-root-forward.py
"""
import traceback
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import fully_shard


def net():
    return nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 4))


def fsdp2(x):
    mesh = init_device_mesh("cpu", (dist.get_world_size(),))
    model = net()
    fully_shard(model[0], mesh=mesh)
    fully_shard(model, mesh=mesh)
    model[0](x)  # the inner unit runs first and becomes a root
    try:
        model(x)
    except RuntimeError:
        traceback.print_exc()


def fsdp1(x):
    cpu = torch.device("cpu")
    model = net()
    model[0] = FSDP(model[0], device_id=cpu)
    model = FSDP(model, device_id=cpu)
    model.module[0](x)  # the inner unit runs first and becomes a root
    model(x).sum().backward()


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    x = torch.randn(2, 8)
    fsdp2(x)
    fsdp1(x)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
