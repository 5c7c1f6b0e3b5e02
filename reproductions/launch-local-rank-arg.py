"""launch-local-rank-arg: torch.distributed.launch passes --local-rank, the script parses --local_rank.

Run without arguments, this script starts itself through `python -m torch.distributed.launch`
with 2 processes. Since torch 2.0 that launcher appends `--local-rank=<n>` (dashed) to the
script's arguments; each child parses its arguments with an argparse parser that only knows
the old underscored `--local_rank`, so argparse exits with status 2:
`error: unrecognized arguments: --local-rank=0`.
Launch: python reproductions/launch-local-rank-arg.py   (MASTER_PORT: a free port)
"""
import argparse
import os
import subprocess
import sys


def child():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=0)  # the pre-2.0 spelling only
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    print(f"local rank {args.local_rank}", flush=True)


def main():
    port = os.environ.get("MASTER_PORT", "29500")
    cmd = [sys.executable, "-m", "torch.distributed.launch", "--nproc-per-node", "2",
           "--master-port", port, os.path.abspath(__file__), "--epochs", "1"]
    sys.exit(subprocess.call(cmd))


if __name__ == "__main__":
    if "--epochs" in sys.argv:
        child()
    else:
        main()
