"""launch-command-error: the launch command runs the wrong program or the wrong interpreter.

Two mistakes from OpenMMLab-style launch scripts, each run as a subprocess:
1. `python tools/dist_train.sh CONFIG 2`: the bash wrapper is handed to Python, which fails to
   parse its first assignment (`CONFIG=$1`): `File ".../tools/dist_train.sh", line 3` and
   `SyntaxError: invalid syntax`.
2. The interpreter that runs `-m torch.distributed.launch` has no torch (here: `python -S`,
   which drops site-packages, standing in for /usr/bin/python outside the conda env):
   `python: Error while finding module specification for 'torch.distributed.launch'
   (ModuleNotFoundError: No module named 'torch')`.
3. A module name passed to torchrun where it expects a script path (`torchrun ... romp.train`):
   each worker prints `python: can't open file '.../romp.train': [Errno 2] No such file or
   directory`, and torchrun reports the failed rank (`ChildFailedError`).
4. A launch line built from an unset shell variable (`--node_rank=$NODE_RANK` with NODE_RANK
   empty): `launch.py: error: argument --node-rank/--node_rank: invalid int value: ''`.
Launch: python reproductions/launch-command-error.py
"""
import os
import subprocess
import sys
import tempfile

DIST_TRAIN_SH = """#!/usr/bin/env bash

CONFIG=$1
GPUS=$2
PORT=${PORT:-29500}

PYTHONPATH="$(dirname $0)/..":$PYTHONPATH \\
python -m torch.distributed.launch --nproc_per_node=$GPUS --master_port=$PORT \\
    $(dirname "$0")/train.py $CONFIG --launcher pytorch ${@:3}
"""


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tools = os.path.join(tmp, "tools")
        os.makedirs(tools)
        script = os.path.join(tools, "dist_train.sh")
        with open(script, "w") as f:
            f.write(DIST_TRAIN_SH)
        rc1 = subprocess.call([sys.executable, script, "configs/faster_rcnn.py", "2"])
        rc2 = subprocess.call([sys.executable, "-S", "-m", "torch.distributed.launch",
                               "--nproc_per_node=2", os.path.join(tools, "train.py")])
        rc3 = subprocess.call([sys.executable, "-m", "torch.distributed.run", "--standalone",
                               "--nproc-per-node", "1", "romp.train"], cwd=tmp)
        rc4 = subprocess.call([sys.executable, "-m", "torch.distributed.launch", "--nproc_per_node=2",
                               "--nnodes=1", "--node_rank=", "--master_addr=127.0.0.1",
                               os.path.join(tools, "train.py")])
    sys.exit(rc1 or rc2 or rc3 or rc4)


if __name__ == "__main__":
    main()
