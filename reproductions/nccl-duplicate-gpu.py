"""nccl-duplicate-gpu: two ranks on the same GPU (needs one GPU).

Both ranks select cuda:0 (the script forgets `torch.cuda.set_device(local_rank)`), so NCCL
sees two ranks of one communicator on the same device and refuses at the first collective.
Launch: torchrun --nproc-per-node 2 reproductions/nccl-duplicate-gpu.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    device = torch.device("cuda", 0)  # should be cuda:LOCAL_RANK
    dist.init_process_group("nccl", timeout=timedelta(seconds=30), device_id=device)
    t = torch.ones(4, device=device)
    dist.all_reduce(t)
    torch.cuda.synchronize()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
