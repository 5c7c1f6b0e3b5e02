"""nccl-watchdog-timeout: a collective that does not finish within the timeout (needs a GPU).

The GPU is kept busy by a long kernel (torch.cuda._sleep, standing in for a straggling
rank or a stuck kernel) before an all_reduce; the NCCL work waits behind it and the
watchdog reports the timeout after 5 s, then takes the process down. One rank is enough:
the watchdog only measures how long the enqueued work has not completed. The reproduce
block turns the flight recorder on (TORCH_NCCL_TRACE_BUFFER_SIZE), as the fix advises.
Launch: torchrun --nproc-per-node 1 reproductions/nccl-watchdog-timeout.py
"""
import os
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", timeout=timedelta(seconds=5), device_id=device)
    t = torch.ones(1 << 20, device=device)
    dist.all_reduce(t)  # a first collective that completes
    torch.cuda.synchronize()
    torch.cuda._sleep(60 * 2_000_000_000)  # ~60 s of GPU time at 2 GHz: the stall
    dist.all_reduce(t)  # enqueued behind the stall: times out after 5 s
    torch.cuda.synchronize()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
