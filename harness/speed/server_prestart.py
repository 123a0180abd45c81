"""The runtime check's server, started before the check: its imports done, the app not yet read.

A cold `python -m uvicorn src.main:app ...` spends most of its start importing uvicorn, FastAPI
and pydantic before it reads the app (~0.3 s of ~0.4 s to the first /health on a quiet machine,
1-1.5 s of 1.2-1.8 s beside a busy suite), and the runtime check waits for all of it at the end
of the build. `prestart(workspace)` spawns, exactly as the check spawns its server (contained,
sharing the host network, its database and logs in a private temporary directory, the same
environment), `python server_preload.py FD`: it imports those packages — never a workspace
module — and blocks on a pipe. `take(workspace)` hands it to the check, which writes the
uvicorn arguments to the pipe; the process then runs `python -m uvicorn` with them
(server_preload.py), reading the app's files as they are at that moment. No prestarted server,
or one that died, and the check launches cold as before; its evidence says which
(`runner: warm` or `runner: cold`, the command shown is the real one either way).
A server nobody took is stopped with the run (`stop`), or by a later `prestart` for the same
workspace. HARNESS_WARM=0 or HARNESS_SPEED=0 turns this off with the warm verification worker.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from harness.sandbox.local import LocalSandbox
from harness.sandbox.runner import SandboxProcess, SpawnError
from harness.utils import own_tmp
from harness.verification.runtime import server_env

SCRIPT = Path(__file__).with_name("server_preload.py")


@dataclass
class PreparedServer:
    """A contained process with the server's imports done, waiting for its uvicorn arguments."""

    proc: SandboxProcess
    tmp: Path          # the server's private directory: app.db, stdout.log, stderr.log
    go_fd: int         # the write end of the pipe the process reads its arguments from

    def start(self, uvicorn_args: list[str]) -> bool:
        """Send the arguments (the process becomes `python -m uvicorn ARGS`); False if it is gone."""
        try:
            if not self.proc.alive():
                return False
            os.write(self.go_fd, (json.dumps(uvicorn_args) + "\n").encode())
            return True
        except OSError:
            return False
        finally:
            self._close_pipe()

    def discard(self) -> None:
        """Stop the process and remove its directory (it never served: nothing to keep)."""
        self._close_pipe()
        self.proc.stop(0.5)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _close_pipe(self) -> None:
        if self.go_fd >= 0:
            os.close(self.go_fd)
            self.go_fd = -1


_LOCK = threading.Lock()
_PREPARED: dict[str, PreparedServer] = {}


def enabled() -> bool:
    from harness.utils.speed_switch import warm_on

    return warm_on()


def _key(workspace: Path) -> str:
    return os.path.realpath(workspace)


def prestart(workspace: Path) -> None:
    """Spawn the workspace's server process now (best effort: a failure leaves the check cold)."""
    if not enabled():
        return
    workspace = Path(workspace)
    tmp = own_tmp.make("runtime")
    server = _spawn(workspace, tmp, "wb")
    if server is None:
        shutil.rmtree(tmp, ignore_errors=True)
        return
    with _LOCK:
        old = _PREPARED.pop(_key(workspace), None)
        _PREPARED[_key(workspace)] = server
    if old is not None:
        old.discard()


def spare(workspace: Path, tmp: Path) -> PreparedServer | None:
    """A prestarted server in the runtime check's own directory `tmp` (its database; logs appended):
    the check's restart (harness/verification/runtime_restart.py) hands it the new port, so the
    restart costs the app's start-up, not the framework's imports. None when prestarting is off, a
    workspace module would shadow a package it imports, or it could not be spawned."""
    from harness.speed.validity import prestart_shadowed

    if not enabled() or prestart_shadowed(Path(workspace)):
        return None
    return _spawn(workspace, tmp, "ab")


def _spawn(workspace: Path, tmp: Path, log_mode: str) -> PreparedServer | None:
    """The server script spawned contained in `tmp` (its database, its logs opened with
    `log_mode`), waiting on a pipe for its port; None when it could not be spawned."""
    read_fd, write_fd = os.pipe()
    try:
        with open(tmp / "stdout.log", log_mode) as out, open(tmp / "stderr.log", log_mode) as err:
            proc = LocalSandbox(workspace).spawn([sys.executable, str(SCRIPT), str(read_fd)], cwd=tmp,
                                                 env=server_env(tmp), network=True, writable=[tmp],
                                                 stdout=out, stderr=err, pass_fds=[read_fd])
    except (SpawnError, OSError):
        os.close(write_fd)
        return None
    finally:
        os.close(read_fd)
    return PreparedServer(proc, tmp, write_fd)


def take(workspace: Path) -> PreparedServer | None:
    """The workspace's prestarted server, if one is alive and may serve this workspace (the caller
    owns it from now on): not when a workspace module would shadow a package it already imported
    (harness/speed/validity.py, `prestart_shadowed`) — a cold start would import the workspace's."""
    from harness.speed.validity import prestart_shadowed

    with _LOCK:
        prepared = _PREPARED.pop(_key(workspace), None)
    if prepared is not None and (not prepared.proc.alive() or prestart_shadowed(Path(workspace))):
        prepared.discard()
        return None
    return prepared


def stop(workspace: Path | None = None) -> None:
    """Stop the prestarted servers nobody took (the workspace's, or all)."""
    with _LOCK:
        keys = [k for k in _PREPARED if workspace is None or k == _key(workspace)]
        gone = [_PREPARED.pop(k) for k in keys]
    for prepared in gone:
        prepared.discard()
