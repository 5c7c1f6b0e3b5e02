"""cuda-device-side-assert: an out-of-range index in a CUDA kernel (needs a GPU).

An embedding lookup with a token id >= the vocabulary size (a tokenizer/vocab mismatch):
the CUDA indexing kernel's assertion fails on the device and the next synchronising call
raises "CUDA error: device-side assert triggered".
Launch: python reproductions/cuda-device-side-assert.py
"""
import torch
from torch import nn


def main():
    emb = nn.Embedding(100, 16).cuda()  # vocabulary of 100 tokens
    ids = torch.tensor([3, 7, 100, 42], device="cuda")  # 100 is out of range
    out = emb(ids)
    print(out.sum().item())  # the assert surfaces at the next synchronisation


if __name__ == "__main__":
    main()
