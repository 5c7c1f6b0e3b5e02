"""c10d-p2p-invalid-peer: send/recv inside a subgroup with group ranks passed as global ranks.

Four processes form two pipelines, pp groups [0, 1] and [2, 3]. Stage 0 of each pipeline sends
its activations to stage 1 with `dist.send(x, dst=1, group=pp_group)`, and stage 1 receives with
`src=0`: the stage numbers are group ranks, but `dst`/`src` are global ranks. Pipeline [0, 1]
works by coincidence (group rank == global rank); in pipeline [2, 3] global ranks 1 and 0 are
not members: `Global rank 1 is not part of group ...` on rank 2, `Global rank 0 ...` on rank 3.
Launch: torchrun --nproc-per-node 4 reproductions/c10d-p2p-invalid-peer.py
"""
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    groups = [dist.new_group([0, 1]), dist.new_group([2, 3])]  # every rank creates every group
    pp_group = groups[rank // 2]
    stage = dist.get_rank(pp_group)
    x = torch.full((4,), float(rank))
    if stage == 0:
        dist.send(x, dst=1, group=pp_group)  # fix: group_dst=1 (torch 2.6+) or dst=dist.get_global_rank(pp_group, 1)
    else:
        dist.recv(x, src=0, group=pp_group)  # fix: group_src=0 (torch 2.6+) or src=dist.get_global_rank(pp_group, 0)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
