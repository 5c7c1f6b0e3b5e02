"""c10d-master-addr-unresolved: MASTER_ADDR names a host that DNS cannot resolve.

A non-zero rank connects to the TCPStore at MASTER_ADDR:MASTER_PORT during init_process_group.
Here MASTER_ADDR is a name that never resolves (the `.invalid` top-level domain is reserved),
like a Kubernetes master Service that does not exist yet or a mistyped hostname. The c10d
socket layer warns on every attempt
`The IPv6 network addresses of (<host>, <port>) cannot be retrieved (gai error: -2 - Name or
service not known)`, then gives up:
`The client socket has timed out after 5000ms while trying to connect to (<host>, <port>)`.
Launch: python reproductions/c10d-master-addr-unresolved.py
"""
import datetime
import os

import torch.distributed as dist


def main():
    os.environ["MASTER_ADDR"] = "pytorchjob-mnist-master-0.invalid"
    os.environ.setdefault("MASTER_PORT", "23456")
    os.environ["RANK"] = "1"  # a worker: it must reach the store on the master
    os.environ["WORLD_SIZE"] = "2"
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=5))


if __name__ == "__main__":
    main()
