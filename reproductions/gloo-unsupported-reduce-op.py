"""gloo-unsupported-reduce-op: a reduction Gloo cannot do for this op and dtype.

Ranks agree on early stopping by AND-ing a "should stop" flag across the group. The flag is a
float tensor, and Gloo implements the bitwise reductions (BAND/BOR/BXOR) only for integer
types, so every rank fails: `Cannot use ReduceOp.BAND with non-integral dtype`.
Launch: torchrun --nproc-per-node 2 reproductions/gloo-unsupported-reduce-op.py
"""
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    should_stop = torch.tensor([1.0])  # float flag; fix: torch.tensor([1], dtype=torch.int32)
    dist.all_reduce(should_stop, op=dist.ReduceOp.BAND)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
