"""syncbn-outside-ddp: SyncBatchNorm run on CPU tensors in a distributed job.

Two CPU processes (Gloo) convert a small CNN with `nn.SyncBatchNorm.convert_sync_batchnorm`
and run a training-mode forward pass on CPU tensors. With a process group initialized and
more than one rank, SyncBatchNorm must synchronize statistics, which it only implements for
GPU (and XPU / PrivateUse1) tensors, so the forward raises
`ValueError: SyncBatchNorm expected input tensor to be on GPU or XPU or privateuseone`.
Launch: torchrun --nproc-per-node 2 reproductions/syncbn-outside-ddp.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU())
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model.train()
    model(torch.randn(4, 3, 16, 16))  # CPU input, training mode
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
