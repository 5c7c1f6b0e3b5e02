"""dtensor-redistribute-error: an operator that DTensor cannot shard runs on a sharded DTensor.

Two ranks build a 1-D DeviceMesh, shard a batch of embeddings on dim 0 (as tensor or
sequence parallel code hands activations around), and compute pairwise distances with
torch.cdist. DTensor's sharding propagation has no strategy for aten._cdist_forward and
raises on every rank.
Launch: torchrun --nproc-per-node 2 reproductions/dtensor-redistribute-error.py
"""
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard, distribute_tensor


def main():
    mesh = init_device_mesh("cpu", (2,))
    torch.manual_seed(0)
    emb = distribute_tensor(torch.randn(8, 16), mesh, [Shard(0)])
    dist_matrix = torch.cdist(emb, emb)  # no DTensor sharding strategy for this op
    print(dist_matrix.shape)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
