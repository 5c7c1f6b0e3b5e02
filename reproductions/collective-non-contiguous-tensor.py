"""collective-non-contiguous-tensor: a collective is given a non-contiguous view.

Each rank builds its send buffer for all_to_all_single as a transposed view (the layout
an expert-parallel dispatch gets from `.transpose()`/`.permute()`), which is not contiguous
in memory. The process group refuses it on every rank: `Tensors must be contiguous`.
Launch: torchrun --nproc-per-node 2 reproductions/collective-non-contiguous-tensor.py
"""
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    world = dist.get_world_size()
    tokens = torch.arange(4.0 * world).reshape(4, world)  # [tokens, ranks]
    send = tokens.t()  # [ranks, tokens]: a view with strides (1, world), not contiguous
    recv = torch.empty(world, 4)
    dist.all_to_all_single(recv, send)  # fix: dist.all_to_all_single(recv, send.contiguous())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
