"""ddp-no-trainable-parameters: every parameter frozen before wrapping the model in DDP.

The script freezes "everything but the head" by name, but the head is registered as
`classifier`, not `head`, so no parameter keeps requires_grad=True and the DDP
constructor refuses the module on every rank.
Launch: torchrun --nproc-per-node 2 reproductions/ddp-no-trainable-parameters.py
"""
from datetime import timedelta

import torch.distributed as dist
from torch import nn


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    model = nn.Sequential()
    model.add_module("backbone", nn.Sequential(nn.Linear(16, 32), nn.ReLU()))
    model.add_module("classifier", nn.Linear(32, 4))
    for name, p in model.named_parameters():
        if not name.startswith("head."):  # the head is called "classifier": nothing stays trainable
            p.requires_grad_(False)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"rank {dist.get_rank()}: trainable parameters: {trainable}", flush=True)
    try:
        nn.parallel.DistributedDataParallel(model)
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
