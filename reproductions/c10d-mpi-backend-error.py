"""c10d-mpi-backend-error: init_process_group("mpi") on a PyTorch build without MPI.

No official PyTorch wheel or conda package is built with MPI (USE_MPI needs a source build on a
host with an MPI library), so the MPI backend is missing even when the script runs under
`mpirun`. The script asks for the MPI backend the way an `mpirun -n 2 python train.py` job
does (rank and world size come from MPI, so none are passed) and fails in
`_new_process_group_helper`:
`RuntimeError: Distributed package doesn't have MPI built in. MPI is only included if you build
PyTorch from source on a host that has MPI installed.`
Launch: python reproductions/c10d-mpi-backend-error.py
"""
import torch
import torch.distributed as dist


def main():
    print(f"torch {torch.__version__}, mpi available: {dist.is_mpi_available()}", flush=True)
    dist.init_process_group(backend="mpi")
    t = torch.ones(1)
    dist.broadcast(t, 0)


if __name__ == "__main__":
    main()
