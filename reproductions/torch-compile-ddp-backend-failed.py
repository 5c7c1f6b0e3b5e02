"""torch-compile-ddp-backend-failed: torch.compile of a DDP model fails in Dynamo's DDPOptimizer.

A DDP model built with bucket_cap_mb=0.25 (smaller buckets to start all-reduces earlier) is
compiled. Dynamo's DDPOptimizer splits the graph at DDP's bucket boundaries and keeps DDP's
1 MiB first bucket, so it refuses a bucket cap below the first bucket and the first
compiled forward raises on every rank. Eager DDP with the same settings runs.
Launch: torchrun --nproc-per-node 2 reproductions/torch-compile-ddp-backend-failed.py
"""
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    layers = [m for _ in range(4) for m in (nn.Linear(64, 64), nn.GELU())]
    model = DDP(nn.Sequential(*layers), bucket_cap_mb=0.25)
    compiled = torch.compile(model)
    compiled(torch.randn(4, 64)).sum().backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
