"""torch-install-mixed-versions: torch Python files newer than the compiled torch._C.

When the Python files of torch come from a newer release than its extension, they call C++
bindings with keywords, and import names, that the older extension does not have. This script
makes both calls against the installed (consistent) torch, so the real binding and the real
import system print the texts:

1. torch's rendezvous code calls `TCPStore(host, port, world_size, is_master, timeout,
   multi_tenant=True, ...)`. A newer release's caller passes a keyword that an older binding
   lacks (`multi_tenant` reaching a torch <= 1.9 extension, `use_libuv` reaching 1.10 - 2.0).
   No installed keyword is missing here, so the call adds one that no release has
   (`tenant_group`), which gives the same pybind11 `incompatible constructor arguments` text,
   with the installed binding's signature and the `kwargs:` that were passed.
2. torch 2.14's torch/distributed/distributed_c10d.py imports `NanCheckHook`,
   `ReconfigureOptions` and `Window` from torch._C._distributed_c10d; a 2.13 extension has none
   of them. The script runs that import for the first such name the installed extension lacks.

Launch: python reproductions/torch-install-mixed-versions.py
"""
import subprocess
import sys

NEWER_CALLER = r'''
from datetime import timedelta
import torch
import torch.distributed as dist
print(f"torch {torch.__version__}, TCPStore from {dist.TCPStore.__module__}", flush=True)
store = dist.TCPStore(
    "127.0.0.1", 0, 1, True, timedelta(seconds=900),
    multi_tenant=True,
    tenant_group="job-1",  # stands in for the keyword a newer release's caller adds
)
'''

NEWER_IMPORT = r'''
import torch._C._distributed_c10d as c10d
import torch
missing = [n for n in ("NanCheckHook", "ReconfigureOptions", "Window") if not hasattr(c10d, n)]
print("torch", torch.__version__, "extension lacks", missing, flush=True)
if missing:
    exec(f"from torch._C._distributed_c10d import {missing[0]}")
'''

SCENARIOS = {
    "newer rendezvous code, older TCPStore binding": NEWER_CALLER,
    "newer torch/distributed files, older torch._C": NEWER_IMPORT,
}

if __name__ == "__main__":
    failed = 0
    for title, code in SCENARIOS.items():
        print(f"$ {title}", flush=True)
        result = subprocess.run([sys.executable, "-c", code], check=False)
        failed += result.returncode != 0
    sys.exit(1 if failed else 0)
