"""fsdp-unshard-oom-forward: the all-gather buffer of an FSDP unit does not fit (needs a GPU).

FSDP2 (`fully_shard`) keeps each parameter sharded and all-gathers a unit's full
parameters at the start of its forward. A 1 GiB linear layer is sharded, then the rest of
the GPU is filled (standing in for activations and other units) so that the unsharded
copy cannot be allocated: the OOM is raised from FSDP's pre-forward unshard.
Works with one GPU and one rank (FSDP2 still all-gathers with a world size of 1).
Launch: torchrun --nproc-per-node 1 reproductions/fsdp-unshard-oom-forward.py
"""
import os
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import fully_shard

GiB = 1 << 30


def main():
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", timeout=timedelta(seconds=60), device_id=device)
    with device:
        model = nn.Sequential(nn.Linear(16384, 16384, bias=False))  # 1 GiB of float32
    fully_shard(model[0])
    fully_shard(model)
    x = torch.randn(2, 16384, device=device)
    filler = []
    free, _ = torch.cuda.mem_get_info(device)
    while free > GiB // 2:  # leave less than the unit's unsharded size free
        filler.append(torch.empty(min(free - GiB // 4, 8 * GiB), dtype=torch.uint8, device=device))
        free, _ = torch.cuda.mem_get_info(device)
    model(x).sum().backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
