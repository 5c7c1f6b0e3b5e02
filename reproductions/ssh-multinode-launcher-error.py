"""ssh-multinode-launcher-error: the remote shell of a multi-node launcher cannot find torchrun.

Multi-node launchers (colossalai run over fabric/ssh, the deepspeed launcher over pdsh, hand-written
`ssh node2 "torchrun ..."` loops, LLaMA-Factory under sudo) run the launch command in a
non-interactive shell whose PATH is the system default: `conda activate` in ~/.bashrc is not
executed (Ubuntu's .bashrc returns early when the shell is not interactive), so the
environment's `torchrun` is not on PATH. The script runs the command the way such a shell does,
with a clean environment (`env -i`), in bash and in /bin/sh:
`bash: line 1: torchrun: command not found` and `/bin/sh: 1: torchrun: not found` (dash).
Launch: python reproductions/ssh-multinode-launcher-error.py
"""
import shutil
import subprocess
import sys

CMD = ("torchrun --nproc_per_node=8 --nnodes=2 --node_rank=1 --rdzv_backend=c10d "
       "--rdzv_endpoint=10.0.0.1:29500 train.py")


def main():
    rcs = []
    for shell in ("/bin/bash", "/bin/sh"):
        if shutil.which(shell):
            rcs.append(subprocess.call(["env", "-i", shell, "-c", CMD]))
    sys.exit(max(rcs) if rcs else 1)


if __name__ == "__main__":
    main()
