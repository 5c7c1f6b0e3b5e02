"""distributed-sampler-invalid-rank: DistributedSampler told the per-node process count.

Simulates a job of 2 nodes x 1 process on this machine: the script starts two torchrun
agents (--nnodes 2, --node-rank 0 and 1) on localhost. Each worker builds
`DistributedSampler(dataset, num_replicas=<processes on this node>, rank=<global rank>)`,
the common mistake of passing the local GPU count (torch.cuda.device_count(), here
LOCAL_WORLD_SIZE) instead of the world size. Rank 0 is valid in [0, 0]; rank 1 is not.
Launch: python reproductions/distributed-sampler-invalid-rank.py (MASTER_PORT set or 29500)
"""
import os
import subprocess
import sys
import time
from datetime import timedelta


def worker():
    import torch
    import torch.distributed as dist
    from torch.utils.data import DataLoader, TensorDataset
    from torch.utils.data.distributed import DistributedSampler

    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    dataset = TensorDataset(torch.arange(64, dtype=torch.float32))
    gpus_per_node = int(os.environ["LOCAL_WORLD_SIZE"])  # what torch.cuda.device_count() gives
    try:
        sampler = DistributedSampler(dataset, num_replicas=gpus_per_node, rank=dist.get_rank())
        for _ in DataLoader(dataset, batch_size=8, sampler=sampler):
            pass
    finally:
        dist.destroy_process_group()


def main():
    port = os.environ.get("MASTER_PORT", "29500")
    agents = [
        subprocess.Popen([sys.executable, "-m", "torch.distributed.run", "--nnodes", "2",
                          "--node-rank", str(node), "--nproc-per-node", "1",
                          "--master-addr", "127.0.0.1", "--master-port", port,
                          os.path.abspath(__file__), "--worker"])
        for node in (0, 1)
    ]
    # Like a scheduler that ends the job when one node fails (srun --kill-on-bad-exit=1):
    # otherwise node 0's agent waits 300 s in torchrun's exit barrier for node 1.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and any(a.poll() is None for a in agents):
        if any(a.poll() not in (None, 0) for a in agents):
            break
        time.sleep(0.5)
    for a in agents:
        if a.poll() is None:
            a.terminate()
    for a in agents:
        try:
            a.wait(timeout=5)
        except subprocess.TimeoutExpired:
            a.kill()
    sys.exit(max(abs(a.wait()) for a in agents))


if __name__ == "__main__":
    worker() if "--worker" in sys.argv else main()
