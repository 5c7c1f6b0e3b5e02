"""ddp-model-mismatch-across-ranks: ranks build different models, then wrap them in DDP.

Rank 1 builds its hidden layer from a config value that differs (as when ranks read
different config files or checkpoints). DDP verifies parameter shapes across ranks in
its constructor and raises before training starts.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-model-mismatch-across-ranks.py
"""
from datetime import timedelta

import torch.distributed as dist
from torch import nn


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    hidden = 16 if dist.get_rank() == 0 else 32  # the config differs on rank 1
    model = nn.Sequential(nn.Linear(8, hidden), nn.ReLU(), nn.Linear(hidden, 1))
    nn.parallel.DistributedDataParallel(model)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
