"""collective-tensor-size-mismatch: ranks disagree on the size of an all_gather tensor.

Each rank gathers the predictions of its evaluation batch. The output buffers are allocated
for a full batch (`batch_size` rows), but the last batch of the shard is shorter on rank 1
(the data set does not divide evenly), so rank 1's input no longer has the shape of the
output slots. ProcessGroupGloo checks every output tensor against the input and raises on
rank 1: `ProcessGroupGloo::allgather: invalid tensor size at index 0 (expected (3, 4), got (4, 4))`.
Rank 0 passed its own check, is already in the collective, and fails with
`Connection closed by peer` when rank 1 exits.
Launch: torchrun --nproc-per-node 2 reproductions/collective-tensor-size-mismatch.py
"""
import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    batch_size, num_classes = 4, 4
    rows = batch_size if rank == 0 else batch_size - 1  # last, short batch on rank 1
    preds = torch.rand(rows, num_classes)
    gathered = [torch.empty(batch_size, num_classes) for _ in range(world)]
    # fix: gather the row counts first (or pad to batch_size) so every rank passes the same shape
    dist.all_gather(gathered, preds)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
