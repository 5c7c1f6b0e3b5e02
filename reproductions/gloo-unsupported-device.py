"""gloo-unsupported-device: ProcessGroupGloo cannot create its transport device.

Creating a Gloo process group first creates one Gloo transport device: from the interface in
GLOO_SOCKET_IFNAME (makeDeviceForInterface), otherwise from this machine's hostname
(makeDeviceForHostname). The device comes from a registry keyed by platform (LINUX: tcp,
WIN32/APPLE: uv) or by GLOO_DEVICE_TRANSPORT; a key with no transport compiled in returns no
device. The PyPI Windows wheels of torch 2.8 - 2.10 have no uv transport, so every Gloo group
there fails with `makeDeviceForHostname(): unsupported gloo device`. Here, on Linux, the same
empty registry slot is reached with GLOO_DEVICE_TRANSPORT=UV (this build has tcp only).
One process, world size 1, as in the single-GPU Windows trainers (Applio, RVC, GPT-SoVITS) that
start a one-rank Gloo group for DDP. It first shows the related device errors of the same
functions:
- a GLOO_SOCKET_IFNAME that names no interface: `Unable to find address for: nosuch0` (a child
  process, before the transport override);
- an interface with no transport: `makeDeviceForInterface(): unsupported gloo device`;
- a hostname that does not resolve: `Cannot resolve <host> to a (local) address`;
then calls init_process_group("gloo") and fails like the Windows reports.
Launch: python reproductions/gloo-unsupported-device.py  (uses MASTER_PORT for the TCPStore)
"""
import multiprocessing as mp
import os

import torch.distributed as dist

PG = dist.ProcessGroupGloo


def show(fn, **kw):
    try:
        fn(**kw)
    except RuntimeError as e:
        print(f"RuntimeError: {e}", flush=True)


def missing_interface():
    show(PG.create_device, interface="nosuch0")  # tcp transport, interface absent


def main():
    child = mp.get_context("spawn").Process(target=missing_interface)
    child.start()
    child.join()
    # The transport name is read once, at the first device creation in this process.
    os.environ["GLOO_DEVICE_TRANSPORT"] = "UV"
    show(PG.create_device, interface="lo")
    show(PG.create_device, hostname="gloo-worker-0.invalid")
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ.setdefault("MASTER_PORT", "29534")
    dist.init_process_group("gloo", rank=0, world_size=1)  # makeDeviceForHostname(): unsupported


if __name__ == "__main__":
    main()
