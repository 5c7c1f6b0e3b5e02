"""fsdp-hybrid-shard-mesh-error: an HSDP device mesh that does not cover every rank.

FSDP1 with `ShardingStrategy.HYBRID_SHARD` takes its inter-node (replicate) and intra-node
(shard) groups from a 2-D DeviceMesh. Here the mesh is built for one "node" of one rank
(`[[0]]`) while the job has two ranks, as when the replicate dimension is left at 1 on a
two-node job: rank 0 wraps fine, rank 1 belongs to no mesh group and fails in
`_init_process_group_state_for_hybrid_shard` with `IndexError: list index out of range`.
Runs on CPU (gloo).
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-hybrid-shard-mesh-error.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardingStrategy


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    mesh = DeviceMesh("cpu", [[0]])  # (replicate=1, shard=1): world size is 2
    FSDP(nn.Linear(4, 4), device_id=torch.device("cpu"), device_mesh=mesh,
         sharding_strategy=ShardingStrategy.HYBRID_SHARD)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
