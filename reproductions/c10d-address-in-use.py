"""c10d-address-in-use: a second job on the same node and the same MASTER_PORT.

A first job (here a TCPStore server this script starts, as torchrun's agent does) holds
MASTER_PORT; a second `torchrun` is started with the same --master-port and its store
server cannot bind.
Launch: python reproductions/c10d-address-in-use.py   (MASTER_PORT: a free port)
"""
import os
import subprocess
import sys
from datetime import timedelta

import torch.distributed as dist

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        sys.exit(0)  # the second job's workers never start
    port = int(os.environ.get("MASTER_PORT", "29500"))
    first_job = dist.TCPStore("127.0.0.1", port, 1, True, timeout=timedelta(seconds=5))
    second_job = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2",
         "--master-port", str(port), __file__, "--worker"],
        check=False,
    )
    sys.exit(second_job.returncode)
