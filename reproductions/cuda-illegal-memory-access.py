"""cuda-illegal-memory-access: a kernel reads far outside its buffer (needs a GPU).

A Triton kernel (Triton ships with CUDA builds of torch) with a bad offset and no mask
reads memory that is not mapped, the way an indexing bug in a custom kernel does. The
error is sticky: the next CUDA call raises "an illegal memory access was encountered".
Launch: python reproductions/cuda-illegal-memory-access.py
"""
import torch
import triton
import triton.language as tl


@triton.jit
def gather(src, dst, offset, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(src + offset + i)  # no mask, offset far past the end of src
    tl.store(dst + i, x, mask=i < n)


def main():
    src = torch.randn(1024, device="cuda")
    dst = torch.empty_like(src)
    gather[(4,)](src, dst, 1 << 40, src.numel(), BLOCK=256)
    print(dst.sum().item())  # raises at the next synchronisation


if __name__ == "__main__":
    main()
