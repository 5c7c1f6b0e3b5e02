"""c10d-backend-unavailable: init_process_group("nccl") on a PyTorch build without NCCL.

The CPU wheel (like the Windows and macOS builds) is compiled without NCCL, so asking for the
"nccl" backend fails in `_new_process_group_helper` on every rank, before any collective:
`RuntimeError: Distributed package doesn't have NCCL built in`. torch >= 2.2 first warns
`Attempted to get default timeout for nccl backend, but NCCL support is not compiled`.
Needs a torch build without NCCL (the CPU wheel; torch.distributed.is_nccl_available() False).
Launch: torchrun --nproc-per-node 2 reproductions/c10d-backend-unavailable.py
"""
import torch
import torch.distributed as dist


def main():
    print(f"torch {torch.__version__}, nccl available: {dist.is_nccl_available()}", flush=True)
    dist.init_process_group(backend="nccl")  # what a GPU training script hard-codes
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
