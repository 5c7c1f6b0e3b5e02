"""default-pg-not-initialized: a collective called before init_process_group.

The script runs under torchrun (so RANK/WORLD_SIZE are set) but never calls
`dist.init_process_group`; the first collective fails on every rank.
Launch: torchrun --nproc-per-node 2 reproductions/default-pg-not-initialized.py
"""
import torch
import torch.distributed as dist


def main():
    loss = torch.tensor([1.0])
    dist.all_reduce(loss)  # no init_process_group() before this


if __name__ == "__main__":
    main()
