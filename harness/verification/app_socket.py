"""The served app's listening socket, made by the harness (hostile attack P1).

The runtime check used to choose a port with bind(0), release it and start uvicorn on it: in
between, any other local process (another run's app under `builder serve`, holding a ring of
ports) could take that port and answer the check's requests with a correct app, so a broken app
passed — and an honest one failed on a stranger's 404s. Invariant: every request the harness
judges by reaches the process the harness started.

So the harness binds the socket itself (`Reserved`: 127.0.0.1, port 0, no SO_REUSEADDR, no
SO_REUSEPORT, not yet listening, so nobody can bind that port beside it and a connect is refused
until the app listens) and hands it to the app's process over its start channel
(app_server.Waiting.start: SCM_RIGHTS); app_start.py puts its descriptor number in place of
FD_SLOT, so uvicorn runs with `--fd N` and listens on the harness's socket. The port is never free
between choosing and serving. A start command that cannot take a socket (a Node app's `npm run
dev -- --port N`) gets a port from `free_port`, and before any request the check looks up who
listens on it (`foreign_listener`: /proc/net/tcp's socket inode in the /proc/<pid>/fd of the
started process tree); a port someone else holds fails the check without a request being judged.
"""

from __future__ import annotations

import os
import socket

from harness.sandbox import procs

HOST = "127.0.0.1"
FD_SLOT = "{listen_fd}"   # in the uvicorn arguments: app_start.py writes the received socket's fd number here
_LISTEN = "0A"            # TCP_LISTEN in /proc/net/tcp
_ANSWERS_LOOPBACK = {"0100007F", "00000000",                       # 127.0.0.1, 0.0.0.0
                     "00000000000000000000000000000000",           # ::
                     "0000000000000000FFFF00000100007F"}           # ::ffff:127.0.0.1


class Reserved:
    """A TCP socket bound by the harness for the app to listen on; `release()` closes the harness's
    copy once the app's process holds it (the socket lives on in the app)."""

    def __init__(self, host: str = HOST, port: int = 0, reuse_addr: bool = False) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            if reuse_addr:   # `builder serve` on a fixed port: rebinding past TIME_WAIT, as uvicorn did
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
        except OSError:
            sock.close()
            raise
        self.sock: socket.socket | None = sock
        self.port: int = sock.getsockname()[1]
        self.inode: int = os.fstat(sock.fileno()).st_ino

    def fileno(self) -> int:
        if self.sock is None:
            raise ValueError("the reserved socket was released")
        return self.sock.fileno()

    def release(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (only for a start command that cannot
    take a socket: `foreign_listener` then checks who took it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def listeners(port: int) -> set[int] | None:
    """Inodes of the sockets listening where a connect to 127.0.0.1:`port` can land; None when
    /proc/net/tcp cannot be read."""
    found: set[int] = set()
    read_any = False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii", errors="replace") as fh:
                lines = fh.read().splitlines()[1:]
        except OSError:
            continue
        read_any = True
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != _LISTEN:
                continue
            addr, _, hexport = fields[1].partition(":")
            if int(hexport, 16) == port and addr.upper() in _ANSWERS_LOOPBACK:
                found.add(int(fields[9]))
    return found if read_any else None


def _tree_sockets(root_pid: int) -> set[int]:
    """Socket inodes open in `root_pid` and its descendants."""
    held: set[int] = set()
    for pid in procs.find_leftovers(roots=(root_pid,)) | {root_pid}:
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for name in names:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{name}")
            except OSError:
                continue
            if target.startswith("socket:["):
                held.add(int(target[8:-1]))
    return held


def foreign_listener(port: int, root_pid: int, own_inode: int | None = None) -> str | None:
    """None when every socket listening on `port` is the app's: the harness's own socket
    (`own_inode`) or one the process tree under `root_pid` holds; else what is wrong, one line."""
    found = listeners(port)
    if found is None:
        return None if own_inode is not None else "cannot read /proc/net/tcp to see who listens on the port"
    if not found:
        return f"nothing listens on {HOST}:{port} any more"
    mine = {own_inode} if own_inode is not None else _tree_sockets(root_pid)
    strangers = sorted(found - mine)
    if strangers:
        return (f"{HOST}:{port} is held by a process the harness did not start (socket inode "
                f"{', '.join(map(str, strangers))} is not the app's)")
    return None
