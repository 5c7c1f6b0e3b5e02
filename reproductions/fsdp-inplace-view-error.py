"""fsdp-inplace-view-error: an in-place write to an FSDP-managed parameter during forward.

FullyShardedDataParallel (FSDP1) keeps each unit's parameters in one flat parameter and, for
forward, exposes the original parameters as views produced by splitting it. nn.Embedding with
max_norm renormalises the looked-up rows of its weight in place (torch.embedding_renorm_), so
the forward writes into one of those views and autograd refuses:
`Output 0 of View is a view and its base or another view of its base has been modified inplace.`
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-inplace-view-error.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(16, 8, max_norm=1.0)  # renormalises its weight in place
        self.head = nn.Linear(8, 1)

    def forward(self, ids):
        return self.head(self.emb(ids)).sum()


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    torch.manual_seed(0)
    model = FSDP(Net(), device_id=torch.device("cpu"))
    loss = model(torch.randint(0, 16, (4, 3)))
    loss.backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
