"""elastic-rendezvous-connection-error: the node hosting the C10d rendezvous store goes away.

Two torchrun agents on this machine play two nodes of one job (`--rdzv-backend c10d`,
`--nnodes 2`). The first hosts the rendezvous TCPStore (`is_host=true`). Once training runs,
its only worker is killed with SIGKILL (standing in for the host OOM killer or a lost node);
with no restarts left, that agent exits and its store goes with it. The second agent's next
rendezvous sync then fails: `RendezvousConnectionError: The connection to the C10d store has
failed.` (inner `DistNetworkError`), and it cannot shut the rendezvous down either.
Launch: python reproductions/elastic-rendezvous-connection-error.py   (MASTER_PORT: a free port)
"""
import os
import subprocess
import sys
import tempfile
import time

WORKER = '''
import os, signal, time
import torch.distributed as dist
dist.init_process_group("gloo")
print(f"rank {dist.get_rank()} of {dist.get_world_size()} training", flush=True)
if dist.get_rank() == 0:
    time.sleep(3)
    os.kill(os.getpid(), signal.SIGKILL)  # the store host's worker dies
time.sleep(60)
'''


def main():
    port = os.environ.get("MASTER_PORT", "29400")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(WORKER)
    env = {k: v for k, v in os.environ.items() if k not in ("MASTER_ADDR", "MASTER_PORT")}
    agent = [sys.executable, "-m", "torch.distributed.run", "--nnodes", "2", "--nproc-per-node", "1",
             "--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}", "--rdzv-id", "repro",
             "--max-restarts", "0", "--monitor-interval", "1"]
    node0 = subprocess.Popen(agent + ["--rdzv-conf", "is_host=true", f.name], env=env)
    time.sleep(2)
    node1 = subprocess.Popen(agent + ["--rdzv-conf", "is_host=false", f.name], env=env)
    node0.wait(timeout=90)
    sys.exit(node1.wait(timeout=90))


if __name__ == "__main__":
    main()
