"""gloo-connect-failed: a Gloo peer's published address refuses the connection.

Creating a Gloo process group makes every rank publish the address of its listening socket in
the store, then connect to each peer's published address. Here rank 1 (a child process, bound
to 127.0.0.1) publishes its address and is killed before rank 0 (bound to 127.0.0.2, so rank 0
is the side that initiates the connection) creates the group: rank 0 connects to an address
where nothing listens, as it would to a peer that advertised 127.0.1.1 from /etc/hosts or one
behind a firewall, and the group creation fails with
`Gloo connectFullMesh failed with [...] ... Connection refused`.
Launch: python reproductions/gloo-connect-failed.py  (uses MASTER_PORT for the TCPStore)
"""
import multiprocessing as mp
import os
import signal
import time
from datetime import timedelta

import torch.distributed as dist

PG = dist.ProcessGroupGloo


def gloo_group(store, rank, host):
    opts = PG._Options()
    opts._devices = [PG.create_device(hostname=host)]
    opts._timeout = timedelta(seconds=10)
    return PG(store, rank, 2, opts)


def rank1(port):
    store = dist.TCPStore("127.0.0.1", port, 2, False, timeout=timedelta(seconds=60))
    store.set("rank1-starting", "1")
    gloo_group(store, 1, "127.0.0.1")  # publishes its address, then waits for rank 0


def main():
    port = int(os.environ.get("MASTER_PORT", "29533"))
    store = dist.TCPStore("127.0.0.1", port, 2, True, timeout=timedelta(seconds=60),
                          wait_for_workers=False)
    child = mp.get_context("spawn").Process(target=rank1, args=(port,))
    child.start()
    store.wait(["rank1-starting"])
    keys = store.num_keys()
    deadline = time.monotonic() + 60
    while store.num_keys() <= keys and time.monotonic() < deadline:
        time.sleep(0.1)  # wait until rank 1 has written its Gloo address into the store
    time.sleep(1)  # rank 1 now waits in connectFullMesh
    os.kill(child.pid, signal.SIGKILL)
    child.join()
    print("rank 1 killed after publishing its Gloo address", flush=True)
    gloo_group(store, 0, "127.0.0.2")


if __name__ == "__main__":
    main()
