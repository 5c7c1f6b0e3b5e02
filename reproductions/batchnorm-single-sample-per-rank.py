"""batchnorm-single-sample-per-rank: the last batch leaves one sample per rank.

Five samples, two ranks, batch size 2: DistributedSampler pads the dataset to 6 and gives
each rank 3 samples, so each rank's DataLoader yields a batch of 2 and then a batch of 1.
BatchNorm1d in training mode cannot compute a variance from one value per channel and
raises on every rank at the last step of the epoch. CPU, gloo.
Launch: torchrun --nproc-per-node 2 reproductions/batchnorm-single-sample-per-rank.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(5, 8), torch.randn(5, 1))
    sampler = DistributedSampler(data, shuffle=False)  # drop_last=False: pads to 6
    loader = DataLoader(data, batch_size=2, sampler=sampler)  # drop_last=False
    model = DDP(nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        print(f"rank {dist.get_rank()} step {step} batch {len(x)}", flush=True)
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
