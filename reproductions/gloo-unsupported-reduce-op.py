"""gloo-unsupported-reduce-op: a reduction that ProcessGroupGloo refuses.

A CPU (gloo) job syncs its epoch metrics the way GPU code written for NCCL does:
`all_reduce(loss, op=ReduceOp.AVG)` for the mean loss, then
`all_reduce(nan_seen, op=ReduceOp.BOR)` on a float flag to learn whether any rank saw a NaN.
torch <= 2.7 refuses the first call (`Cannot use ReduceOp.AVG with Gloo`); torch >= 2.8
averages it, and the second call fails on every version
(`Cannot use ReduceOp.BOR with non-integral dtype`: gloo has bitwise ops for integer tensors only).
Launch: torchrun --nproc-per-node 2 reproductions/gloo-unsupported-reduce-op.py
"""
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    loss = torch.tensor([0.5 + rank])          # this rank's mean loss
    nan_seen = torch.tensor([0.0])             # 1.0 if this rank saw a NaN
    dist.all_reduce(loss, op=dist.ReduceOp.AVG)       # fix: op=SUM, then loss /= world_size
    dist.all_reduce(nan_seen, op=dist.ReduceOp.BOR)   # fix: op=MAX, or an integer (uint8) flag
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
