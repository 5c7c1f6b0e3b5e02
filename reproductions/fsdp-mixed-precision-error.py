"""fsdp-mixed-precision-error: an fp32 buffer meets bf16 activations under FSDP MixedPrecision.

FSDP1 with `MixedPrecision(param_dtype=torch.bfloat16)` casts parameters and the root's
forward inputs to bf16, but leaves buffers in fp32 when `buffer_dtype` is not set. A forward
that multiplies activations by a registered buffer (a scale, a rotary table, a mask) then
mixes dtypes and the matmul fails. Runs on CPU (gloo); CUDA prints the `mat1 and mat2`
variant of the same message.
Launch: torchrun --nproc-per-node 2 reproductions/fsdp-mixed-precision-error.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import MixedPrecision


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.register_buffer("scale", torch.ones(8, 8))  # stays float32: no buffer_dtype

    def forward(self, x):
        return self.proj(x) @ self.scale


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    policy = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16)
    model = FSDP(Net(), device_id=torch.device("cpu"), mixed_precision=policy)
    model(torch.randn(4, 8)).sum().backward()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
