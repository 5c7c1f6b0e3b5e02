"""c10d-backend-collective-unsupported: a collective that the group's backend does not implement.

`monitored_barrier` is implemented by Gloo only. The script initialises the default group the
way the torchrun examples do, without naming a backend, so PyTorch registers a backend per
device type (Gloo for CPU here; Gloo for CPU and NCCL for CUDA on a GPU build). The group's
backend is then not the string "gloo", and torch 1.9 - 2.13 refuse it on every rank:
`ValueError: monitored_barrier is only implemented for GLOO backend.` (torch 2.14+ check the
CPU backend instead). Fix: `dist.monitored_barrier(group=dist.new_group(backend="gloo"))`.
Launch: torchrun --nproc-per-node 2 reproductions/c10d-backend-collective-unsupported.py
"""
import datetime

import torch.distributed as dist


def main():
    dist.init_process_group()  # no backend: one per device type ("undefined" as a whole)
    dist.monitored_barrier(timeout=datetime.timedelta(seconds=30))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
