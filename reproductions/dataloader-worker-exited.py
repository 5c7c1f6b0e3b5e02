"""dataloader-worker-exited: a DataLoader worker process killed by SIGKILL.

A worker is killed while loading a batch (the kernel OOM killer does this when workers
hold too much host memory; here the worker sends itself SIGKILL). The main process's
SIGCHLD handler reports the signal and the iterator raises. One worker that dies before it
has sent anything, while the main process waits for its first batch: with two workers the
main process was sometimes reading the other worker's batch when the signal came, and then
only the handler's line was printed, without the iterator's "exited unexpectedly".
Launch: python reproductions/dataloader-worker-exited.py
"""
import os
import signal
import time

import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        if i == 0:
            time.sleep(0.5)  # the main process is waiting in the iterator by now
            os.kill(os.getpid(), signal.SIGKILL)  # what the OOM killer sends
        return torch.randn(3, 8, 8)


def main():
    loader = DataLoader(Images(), batch_size=4, num_workers=1)
    for _ in loader:
        pass


if __name__ == "__main__":
    main()
