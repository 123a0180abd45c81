"""How every built app is served (harness/verification/app_server.py): run as a script inside the
sandbox, stdlib only — by the runtime check (cold, prestarted or restarted) and by `builder serve`
alike, so the process the app runs in is the same whoever started it.

Usage: python app_start.py [--bare]

It imports uvicorn and the web stack the generated app is built on (never a workspace module;
`--bare`: nothing, when a workspace module would shadow one of them), then blocks reading its
standard input, a Unix socket. The harness sends one line there, the JSON list of arguments it
would give `python -m uvicorn` (`["src.main:app", "--app-dir", WS, "--fd", "{listen_fd}"]`), with
the listening socket it bound attached (SCM_RIGHTS, harness/verification/app_socket.py); the
script writes that socket's descriptor number in place of `{listen_fd}`, puts /dev/null on its
standard input and becomes that command: sys.path[0] is the working directory and uvicorn's
`__main__` runs through runpy with those arguments, as `-m` does. End of file without a line:
exit 0 (the harness let the server go unused). Arguments naming `{listen_fd}` with no socket
attached: exit 2. A package that fails to import is left to uvicorn, which then fails, or not,
as a cold start would.
"""

import os
import sys

# `python -m` puts the working directory first; a script's own directory must not be on the path.
sys.path[0] = os.getcwd()

import json  # noqa: E402
import runpy  # noqa: E402
import socket  # noqa: E402

FD_SLOT = "{listen_fd}"   # app_socket.FD_SLOT (this script imports nothing of the harness)

PRELOAD = ("uvicorn", "uvicorn.main", "uvicorn.config", "uvicorn.server", "uvicorn.lifespan.on",
           "uvicorn.protocols.http.h11_impl", "uvicorn.protocols.http.httptools_impl",
           "uvicorn.protocols.websockets.auto", "uvicorn.loops.auto",
           "fastapi", "fastapi.responses", "fastapi.staticfiles", "starlette", "pydantic", "pydantic.v1",
           "sqlite3")


def preload(modules) -> None:
    """Import `modules` (best effort). Warnings go to stderr under the default filters, as they
    would when uvicorn or the app imported the same modules in a cold start."""
    for name in modules:
        try:
            __import__(name)
        except Exception:  # noqa: BLE001 - not warm, not broken: uvicorn imports what it needs
            continue


def read_line(fd: int) -> tuple[bytes, list[int]]:
    """One line from `fd` and the descriptors sent with it; `fd` then becomes /dev/null (the app's
    standard input, as for any server)."""
    data, fds = b"", []
    channel = socket.socket(fileno=os.dup(fd))
    try:
        while not data.endswith(b"\n"):
            chunk, got, _flags, _addr = socket.recv_fds(channel, 65536, 1)
            fds += got
            if not chunk:
                break
            data += chunk
    finally:
        channel.close()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, fd)
    os.close(null)
    return data, fds


def main() -> int:
    if sys.argv[1:] != ["--bare"]:
        preload(PRELOAD)
    line, fds = read_line(0)
    if not line.strip():
        return 0
    args = [str(a) for a in json.loads(line)]
    if FD_SLOT in args:
        if not fds:
            print("app_start: no listening socket came with the arguments", file=sys.stderr)
            return 2
        args = [str(fds[0]) if a == FD_SLOT else a for a in args]
    sys.argv = ["uvicorn", *[str(a) for a in args]]
    runpy.run_module("uvicorn", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
