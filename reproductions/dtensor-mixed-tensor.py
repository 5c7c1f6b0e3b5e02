"""dtensor-mixed-tensor: an operator called on a DTensor and a plain torch.Tensor.

A weight is sharded as a DTensor over a 1-D CPU device mesh (gloo), and a step adds a
plain local tensor to it (as a hand-written update or a buffer that was not distributed
does). DTensor's dispatcher refuses to guess how the plain tensor is laid out.
Launch: torchrun --nproc-per-node 2 reproductions/dtensor-mixed-tensor.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard, distribute_tensor


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    mesh = init_device_mesh("cpu", (dist.get_world_size(),))
    weight = distribute_tensor(torch.randn(8, 4), mesh, [Shard(0)])
    update = torch.randn(8, 4)  # a plain tensor, not a DTensor
    torch.add(weight, update)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
