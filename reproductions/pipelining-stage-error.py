"""pipelining-stage-error: a pipeline schedule gets a microbatch shape other than the one it was set up with.

Two ranks run one PipelineStage each under ScheduleGPipe. Step 1 uses sequence length 4;
step 2 uses sequence length 6. The stages size their send/receive buffers from the first
step, so the second step no longer fits. With TORCH_DISTRIBUTED_DEBUG=DETAIL (set in the
entry's reproduce block) the first stage validates its inputs and raises the pipelining
metadata error; without it, Gloo aborts on the oversized message (gloo-connection-closed)
and NCCL hangs or corrupts.
Launch: TORCH_DISTRIBUTED_DEBUG=DETAIL torchrun --nproc-per-node 2 reproductions/pipelining-stage-error.py
"""
import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    stage = PipelineStage(nn.Linear(16, 16), rank, 2, torch.device("cpu"))
    schedule = ScheduleGPipe(stage, n_microbatches=2, loss_fn=lambda out, target: out.sum())
    for seq_len in (4, 6):  # the second batch is longer: dynamic shapes
        x = torch.randn(8, seq_len, 16)
        if rank == 0:
            schedule.step(x)
        else:
            schedule.step(target=torch.zeros(8), losses=[])
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
