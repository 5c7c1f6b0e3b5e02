"""elastic-sigbus-exit: a worker dies from SIGBUS (exitcode -7) touching an unbacked mapped page.

Rank 1 maps a file with torch.from_file(shared=True), the file is then truncated (as when a
memory-mapped dataset or checkpoint is rewritten under a running job), and reading the tensor
touches pages that no longer have backing storage: the kernel sends SIGBUS. A full /dev/shm
(shared-memory tensors, NCCL or DeepSpeed shared buffers in a container with 64 MB of shm)
fails the same way, because tmpfs cannot allocate the page at first touch.
Launch: torchrun --nproc-per-node 2 reproductions/elastic-sigbus-exit.py
"""
import os
import tempfile
import time
from datetime import timedelta

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    t = torch.ones(4)
    dist.all_reduce(t)
    if dist.get_rank() == 1:
        path = os.path.join(tempfile.gettempdir(), "elastic-sigbus-shard.bin")
        torch.zeros(1 << 16, dtype=torch.uint8).numpy().tofile(path)
        data = torch.from_file(path, shared=True, size=1 << 16, dtype=torch.uint8)
        os.truncate(path, 0)  # the mapping stays, its backing pages are gone
        print("rank 1: reading a mapped shard whose file was truncated", flush=True)
        print(int(data.sum()))  # SIGBUS here
    time.sleep(30)  # rank 0 keeps "training" until torchrun stops it
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
