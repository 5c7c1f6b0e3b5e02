"""dtensor-device-mesh-invalid-arguments: init_device_mesh / DeviceMesh refusing its arguments.

Two ranks (gloo, CPU) make the argument mistakes that training scripts make when they build a
device mesh by hand: names that do not match the shape, a repeated name, a device string
with an index, slicing or flattening with a name the mesh does not have, get_group() on a
2-D mesh without a dimension. Each refusal is caught and its traceback printed; the last
one, a (2, 2) mesh on a 2-process job (dp * tp larger than the world size), is left to end
the run as it ends a real one.
Launch: torchrun --nproc-per-node 2 reproductions/dtensor-device-mesh-invalid-arguments.py
"""
import traceback
from datetime import timedelta

import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh


def attempt(step):
    try:
        step()
    except (RuntimeError, KeyError, ValueError):
        traceback.print_exc()


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    # names that do not match the shape, a repeated name, a device string with an index
    attempt(lambda: init_device_mesh("cpu", (2,), mesh_dim_names=("dp", "tp")))
    attempt(lambda: init_device_mesh("cpu", (1, 2), mesh_dim_names=("dp", "dp")))
    attempt(lambda: init_device_mesh("cpu:0", (2,)))

    mesh = init_device_mesh("cpu", (1, 2), mesh_dim_names=("dp", "tp"))
    attempt(lambda: mesh["pp"])                  # slicing a name the mesh does not have
    attempt(lambda: mesh.get_group("pp"))
    attempt(lambda: mesh.get_group())            # 2-D mesh, no mesh_dim
    attempt(lambda: mesh["dp", "tp"]._flatten("tp"))  # flattened name taken by a dimension
    mesh["dp", "tp"]._flatten("dp_tp")
    attempt(lambda: mesh["dp"]._flatten("dp_tp"))     # same name, other dimensions
    attempt(lambda: mesh["dp_tp", "tp"])              # overlapping dimensions

    unnamed = init_device_mesh("cpu", (1, 2))
    attempt(lambda: unnamed["dp"])
    attempt(lambda: unnamed._flatten())
    attempt(lambda: unnamed.get_group("dp"))

    # dp * tp = 4 ranks on a 2-rank job
    init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
