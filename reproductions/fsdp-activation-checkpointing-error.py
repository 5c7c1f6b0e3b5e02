"""fsdp-activation-checkpointing-error: an FSDP block with activation checkpointing recomputes a different forward.

Two ranks shard a small attention-like model with FSDP2 (fully_shard) and checkpoint each
block (non-reentrant torch.utils.checkpoint, as apply_activation_checkpointing does). The
block keeps a key cache that its forward appends to, like a decoder run with use_cache=True.
The recomputation in backward sees the cache the original forward already filled, so the
recomputed keys are twice as long and checkpoint refuses the mismatching tensors.
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-activation-checkpointing-error.py
"""
import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import fully_shard
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.cache = []  # past keys, appended on every forward (use_cache=True)

    def forward(self, x):
        keys = self.k(x)
        self.cache.append(keys.detach())
        keys = torch.cat(self.cache, dim=1)  # (batch, past + seq, dim)
        scores = self.q(x) @ keys.transpose(1, 2)
        return scores.softmax(-1) @ keys


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=False)
        return x


def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = Net()
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    model(torch.randn(2, 8, 16)).sum().backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
