"""ddp-module-mixed-devices: DDP wraps a model whose parameters are on two device types.

The backbone is materialised on the CPU while the head stays on the `meta` device, as
when a loader creates weights lazily (`init_empty_weights`, `device_map` offload) and
only part of them is loaded. On a GPU machine the same check fires for a model partly on
`cuda` and partly on `cpu` (offloaded layers, a submodule added after `model.cuda()`).
DistributedDataParallel's constructor collects the device types of the parameters and
raises before any communication.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-module-mixed-devices.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
    with torch.device("meta"):
        head = nn.Linear(16, 1)  # never materialised
    model = nn.Sequential(backbone, head)
    nn.parallel.DistributedDataParallel(model)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
