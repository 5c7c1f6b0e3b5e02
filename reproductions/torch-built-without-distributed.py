"""torch-built-without-distributed: torch.distributed used on a build without it (USE_DISTRIBUTED=0).

A PyTorch build without distributed support (torch/csrc/Module.cpp adds the `_c10d_init`,
`_rpc_init`, `_dist_autograd_init` and `_faulty_agent_init` functions to `torch._C` only
`#if defined(USE_DISTRIBUTED) && defined(USE_C10D)`) makes `torch.distributed.is_available()`
return False, and `torch/distributed/__init__.py` then defines almost nothing. This script
simulates such a build on an ordinary wheel: each child interpreter loads `torch._C` through
an import hook that deletes exactly those four functions before `torch` runs any Python code,
so the real torch Python code takes its USE_DISTRIBUTED=0 branch and prints its own errors:
torchrun (`cannot import name 'Store' from 'torch.distributed'`), a training script
(`module 'torch.distributed' has no attribute 'init_process_group'`), FSDP
(`No module named 'torch._C._distributed_c10d'; 'torch._C' is not a package`) and
DistributedSampler (`Requires distributed package to be available`).
Launch: python reproductions/torch-built-without-distributed.py
"""
import subprocess
import sys

NO_DISTRIBUTED = r'''
import importlib.machinery, sys
HIDDEN = ("_c10d_init", "_rpc_init", "_dist_autograd_init", "_faulty_agent_init")
class Loader:
    def __init__(self, inner):
        self.inner = inner
    def create_module(self, spec):
        return self.inner.create_module(spec)
    def exec_module(self, module):
        self.inner.exec_module(module)
        for name in HIDDEN:
            if hasattr(module, name):
                delattr(module, name)
class Finder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "torch._C":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        spec.loader = Loader(spec.loader)
        return spec
sys.meta_path.insert(0, Finder)
'''

SCENARIOS = {
    "torchrun --nproc-per-node 2 train.py": r'''
import runpy, sys
sys.argv = ["torchrun", "--nproc-per-node", "2", "train.py"]
runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
''',
    "python train.py (init_process_group)": r'''
import torch, torch.distributed as dist
print(f"torch {torch.__version__}, torch.distributed.is_available(): {dist.is_available()}", flush=True)
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29500", rank=0, world_size=1)
''',
    "python train.py (FSDP import)": r'''
from torch.distributed.fsdp import FullyShardedDataParallel
''',
    "python train.py (DistributedSampler)": r'''
from torch.utils.data import DistributedSampler
sampler = DistributedSampler(list(range(8)))
''',
}

if __name__ == "__main__":
    failed = 0
    for title, code in SCENARIOS.items():
        print(f"$ {title}", flush=True)
        result = subprocess.run([sys.executable, "-c", NO_DISTRIBUTED + code], check=False)
        failed += result.returncode != 0
    sys.exit(1 if failed else 0)
