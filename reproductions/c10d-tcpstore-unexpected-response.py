"""c10d-tcpstore-unexpected-response: MASTER_PORT is held by a service that is not a TCPStore.

A stand-in for an unrelated service (an SSH-style daemon that greets every connection with
a banner line) listens on MASTER_ADDR:MASTER_PORT. A worker (rank 1 of 2) then runs
init_process_group(env://): its TCPStore client connects, sends its ping and reads the
service's banner instead of the echoed nonce. torch 2.9+ logs
`TCP client failed to connect/validate to host ... - retrying (...): Ping failed, invalid
value returned from server. Expected: <pid>, Got: 759714643` on each retry (759714643 is
b"SSH-" read as a little-endian uint32) and raises DistNetworkError with the same text when
the store timeout (5 s here) runs out. torch releases before the ping read the banner in the
first key wait instead and raise `Stop_waiting response is expected`.
Launch: python reproductions/c10d-tcpstore-unexpected-response.py   (MASTER_PORT: a free port)
"""
import datetime
import os
import subprocess
import sys
import time

import torch.distributed as dist

SERVICE = r"""
import socket, sys, threading
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[1])))
srv.listen(16)
print("service ready", flush=True)

def serve(conn):
    try:
        conn.sendall(b"SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.10\r\n")
        while conn.recv(4096):
            pass
    except OSError:
        pass

while True:
    conn, _ = srv.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
"""


def main():
    port = os.environ.setdefault("MASTER_PORT", "29500")
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    service = subprocess.Popen([sys.executable, "-c", SERVICE, port], stdout=subprocess.PIPE, text=True)
    try:
        service.stdout.readline()  # "service ready": the port is held
        time.sleep(0.2)
        dist.init_process_group(
            "gloo", init_method="env://", rank=1, world_size=2,
            timeout=datetime.timedelta(seconds=5),
        )
    finally:
        service.terminate()
        service.wait()


if __name__ == "__main__":
    main()
