"""distributed-sampler-dataset-smaller-than-world-size: a split smaller than the world size.

Four ranks (CPU, gloo) iterate over an evaluation split of one sample with
torch.distributed.elastic's ElasticDistributedSampler. Like DistributedSampler before
torch 1.8, it pads the index list only once (`indices += indices[:total_size - len(indices)]`),
so when the dataset holds fewer than half as many samples as there are ranks the padded list
is still shorter than `num_samples * num_replicas` and every rank fails its length check at
the first iteration (torch <= 2.11: `assert len(indices) == self.total_size`; from 2.12 a
bare `raise AssertionError`).
Launch: torchrun --nproc-per-node 4 reproductions/distributed-sampler-dataset-smaller-than-world-size.py
"""
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.distributed.elastic.utils.data import ElasticDistributedSampler
from torch.utils.data import DataLoader, TensorDataset


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    eval_split = TensorDataset(torch.randn(1, 8))  # 1 sample, 4 ranks
    sampler = ElasticDistributedSampler(eval_split)
    print(f"rank {rank}: len(dataset)={len(eval_split)} world_size={world} "
          f"num_samples={sampler.num_samples} total_size={sampler.total_size}", flush=True)
    try:
        for (x,) in DataLoader(eval_split, batch_size=1, sampler=sampler):
            print(f"rank {rank}: batch of {len(x)}", flush=True)
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
