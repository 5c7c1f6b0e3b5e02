"""ddp-syncbn-error: a model with SyncBatchNorm layers wrapped in DDP on CPU.

The BatchNorm layers are converted with convert_sync_batchnorm (as multi-GPU recipes and
Lightning's `sync_batchnorm=True` do), but the job runs on CPU with the Gloo backend, so the
module handed to DistributedDataParallel has CPU parameters. The DDP constructor refuses it
on every rank before any forward. CPU, gloo.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-syncbn-error.py
"""
from datetime import timedelta

import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU())
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    DDP(model)  # CPU module: no device_ids, parameters on cpu
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
