"""The one way a built app is served: by the runtime check (cold, prestarted, restarted) and by
`builder serve` for its user (#46/#47, hostile attack A5).

An app that can tell the judge from its user can pass the judge and fail the user. So the
environment the runtime check judges the app in is, by construction, the one its user runs it in:
both call `spawn_waiting`/`launch` here, which start the same script (app_start.py: it imports the
web stack, then becomes `python -m uvicorn ARGS`) through the same sandbox call with the same
arguments — under bubblewrap as the user's own uid/gid, HOME at runner.SERVED_HOME, the data
directory bound at DATA_AT and used as the working directory, `APP_DB_PATH=DATA_AT/app.db`, the
workspace read-only at its own path, a listening socket the harness bound as uvicorn's `--fd`
(app_socket.py: sent with the arguments, so no other process can take the port between choosing
and serving), standard input /dev/null, standard output and error pipes
whose bytes go to log files (the check) or the terminal (serve), and an environment with no
variable of the harness's (runner.spawn `served`, env.served_env). What differs: the port, the
host directory behind DATA_AT (a fresh `app-…` temp directory for the check, `<run>/app-data` for
the user; visible only in /proc/self/mountinfo), and what is outside the process (the network
namespace is the host's in both; the time). docs/acceptance.md lists them; tests/test_serve.py
compares what an app sees under both, field by field.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from harness.sandbox.isolation import bwrap_path
from harness.sandbox.local import LocalSandbox
from harness.sandbox.runner import SandboxProcess
from harness.verification.app_socket import FD_SLOT, Reserved

HOST = "127.0.0.1"
DATA_AT = "/srv/app-data"   # the data directory, as the app sees it under bubblewrap
SCRIPT = Path(__file__).with_name("app_start.py")
JOIN_S = 5.0
# What app_start.py imports before it reads the app (its PRELOAD), by top-level name.
PRELOADED_TOP_LEVEL = frozenset({"uvicorn", "fastapi", "starlette", "pydantic", "sqlite3", "pydantic_core",
                                 "anyio", "h11", "httptools", "click", "typing_extensions", "annotated_types",
                                 "sniffio", "idna", "websockets", "uvloop", "watchfiles", "dotenv", "yaml"})

Sink = tuple[Path, str] | IO[bytes]   # a log file and its open mode ("wb"/"ab"), or an open binary stream


def shadowed(workspace: Path) -> list[str]:
    """Top-level names in the workspace that a start would import from the workspace instead of the
    installed package app_start.py already holds (then it starts `--bare`); empty when none."""
    try:
        names = os.listdir(workspace)
    except OSError:
        return ["<unreadable workspace>"]
    found = set()
    for name in names:
        stem = name[:-3] if name.endswith(".py") else name.split(".")[0] if name.endswith((".so", ".pyc")) else name
        if stem in PRELOADED_TOP_LEVEL and (name.endswith((".py", ".so", ".pyc"))
                                            or os.path.isdir(os.path.join(workspace, name))):
            found.add(name)
    return sorted(found)


def data_seen(data: Path) -> str:
    """The data directory's path as the app sees it (DATA_AT under bubblewrap, else the host path)."""
    return DATA_AT if bwrap_path() else str(data)


def app_env(data: Path) -> dict[str, str]:
    """What the launcher adds to a served app's environment (runner.spawn adds the allowlist)."""
    return {"APP_DB_PATH": f"{data_seen(data)}/app.db", "PYTHONDONTWRITEBYTECODE": "1"}


def command(entry: tuple[str, str], port: int, workspace: Path) -> list[str]:
    """The command the app is served by: `python -m uvicorn ARGS` (ARGS = command[3:], what
    app_start.py runs; `--fd` the socket the harness bound, app_socket.py) or, for a Node app,
    `npm run dev -- --port N`."""
    if entry[0] == "node":
        return ["npm", "run", "dev", "--", "--port", str(port)]
    return [sys.executable, "-m", "uvicorn", entry[1], "--app-dir", str(workspace), "--fd", FD_SLOT]


@dataclass
class Waiting:
    """A served app's process with its imports done, waiting for its uvicorn arguments (and the
    socket to serve on) on stdin."""

    proc: SandboxProcess
    data: Path                # its data directory on the host (app.db)
    go: socket.socket | None  # the harness's end of its standard input (a Unix socket pair)
    tmp: Path | None = None   # the runtime check's own directory (logs), when the check made it
    threads: list[threading.Thread] = field(default_factory=list)
    spare: Waiting | None = None   # the restart's process, spawned with this one (server_prestart.prestart)

    def start(self, uvicorn_args: list[str], listener: Reserved) -> bool:
        """Send the arguments with the socket the harness bound (the process becomes `python -m
        uvicorn ARGS`, serving on that socket); False if it is gone. The caller releases `listener`."""
        try:
            if not self.proc.alive() or self.go is None:
                return False
            line = (json.dumps(uvicorn_args) + "\n").encode()
            socket.send_fds(self.go, [line], [listener.fileno()])
            return True
        except OSError:
            return False
        finally:
            self.close_pipe()

    def take_spare(self) -> Waiting | None:
        """The spare spawned with this process (the caller owns it from now on), or None."""
        spare, self.spare = self.spare, None
        return spare

    def drop(self) -> None:
        """Stop the process, unused; its directories stay (a spare's are the check's)."""
        self.close_pipe()
        self.proc.stop(0.5)

    def discard(self) -> None:
        """Stop the process and its spare, remove the check's directories (they never served:
        nothing to keep)."""
        from harness.utils import own_tmp

        if (spare := self.take_spare()) is not None:
            spare.drop()
        self.drop()
        if self.tmp is not None:
            own_tmp.remove(self.tmp)

    def close_pipe(self) -> None:
        if self.go is not None:
            self.go.close()
            self.go = None


def spawn_waiting(workspace: Path, data: Path, out: Sink, err: Sink, tmp: Path | None = None) -> Waiting:
    """Spawn app_start.py contained, serving from `data`, its output pumped to `out`/`err`; it
    waits for `Waiting.start`. Raises SpawnError when it cannot be started."""
    workspace = Path(workspace)
    argv = [sys.executable, str(SCRIPT), *(["--bare"] if shadowed(workspace) else [])]
    return _spawn(workspace, argv, data, out, err, tmp, go=True)


def launch(workspace: Path, entry: tuple[str, str], listener: Reserved | int, data: Path, out: Sink,
           err: Sink) -> SandboxProcess:
    """Serve the app now: a Python app through app_start.py on the socket `listener` (the caller
    releases it), a Node app by npm in its workspace on the port `listener`. Raises SpawnError when
    it cannot be started; a process that died at once is returned as it is."""
    if entry[0] == "node":
        argv = command(entry, listener if isinstance(listener, int) else listener.port, workspace)
        return _spawn(Path(workspace), argv, data, out, err, None, go=False).proc
    if not isinstance(listener, Reserved):
        raise TypeError("a Python app is served on a socket the harness bound (app_socket.Reserved)")
    waiting = spawn_waiting(workspace, data, out, err)
    waiting.start(command(entry, listener.port, workspace)[3:], listener)
    return waiting.proc


def _spawn(workspace: Path, argv: list[str], data: Path, out: Sink, err: Sink, tmp: Path | None,
           go: bool) -> Waiting:
    # The start channel is a Unix socket pair, not a pipe: the listening socket travels over it (SCM_RIGHTS).
    go_here, go_there = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM) if go else (None, None)
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    cwd = workspace if argv[0] == "npm" else data
    try:
        proc = LocalSandbox(workspace).spawn(argv, cwd=cwd, env=app_env(data), network=True, served={DATA_AT: data},
                                             stdout=out_write, stderr=err_write,
                                             **({"stdin": go_there.fileno()} if go_there is not None else {}))
    except BaseException:
        for fd in (out_read, err_read):
            os.close(fd)
        if go_here is not None:
            go_here.close()
        raise
    finally:
        for fd in (out_write, err_write):
            os.close(fd)
        if go_there is not None:
            go_there.close()
    waiting = Waiting(proc, Path(data), go_here, tmp)
    waiting.threads = [_pump(out_read, out), _pump(err_read, err)]
    proc.after_stop.append(lambda: [t.join(JOIN_S) for t in waiting.threads])
    return waiting


def _pump(fd: int, sink: Sink) -> threading.Thread:
    """A thread copying the pipe `fd` to `sink` until every writer is gone."""
    def copy() -> None:
        with os.fdopen(fd, "rb", buffering=0) as src:
            target = open(sink[0], sink[1], buffering=0) if isinstance(sink, tuple) else sink
            try:
                while chunk := src.read(1 << 16):
                    target.write(chunk)
                    target.flush()
            except (OSError, ValueError):
                pass
            finally:
                if isinstance(sink, tuple):
                    target.close()

    thread = threading.Thread(target=copy, name="app-output", daemon=True)
    thread.start()
    return thread
