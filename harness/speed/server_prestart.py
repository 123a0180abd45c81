"""The runtime check's server, started before the check: its imports done, the app not yet read.

A cold start spends most of its time importing uvicorn, FastAPI and pydantic before it reads the
app (~0.3 s of ~0.4 s to the first /health on a quiet machine, 1-1.5 s of 1.2-1.8 s beside a busy
suite), and the runtime check waits for all of it at the end of the build. Every served app starts
as `python app_start.py`, which imports those packages — never a workspace module — and waits on
its standard input for the uvicorn arguments (harness/verification/app_server.py, the one launcher
of the check and of `builder serve`). `prestart(workspace)` only spawns that process earlier, in
the check's own private directories; `take(workspace)` hands it to the check, which sends the
arguments; the process then runs `python -m uvicorn` with them, reading the app's files as they
are at that moment. What the app sees is the same as in a cold start (the same call, the same
process); only the moment it was spawned differs. No prestarted server, or one that died, and the
check launches cold; its evidence says which (`runner: warm` or `runner: cold`).
A server nobody took is stopped with the run (`stop`), or by a later `prestart` for the same
workspace. HARNESS_WARM=0 or HARNESS_SPEED=0 turns this off with the warm verification worker.

`take` spawns a second such process in the same directories, the *spare*, as it hands the server
to the check: the acceptance leg's restart (harness/verification/runtime_restart.py) hands it the
new port once the first server has stopped, so it reads the app and its database only after the
records it reads back were written. Spawned as the check starts (not when the leg starts, ~0.6 s
before the restart), its imports are done by the restart instead of being the restart's wait;
not with the prestarted server either, whose start overlaps the earlier tasks' sessions, where the
spare's ~0.5 s of CPU slowed them as much as it saved (docs/speed.md). A check without a
prestarted server spawns its spare when the leg starts (`spare`).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from harness.sandbox.runner import SpawnError
from harness.utils import own_tmp
from harness.verification.app_server import Waiting, spawn_waiting

PreparedServer = Waiting   # a contained process with the server's imports done, waiting for its arguments


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
    server = _spawn(workspace, tmp, own_tmp.make_beside(tmp), "wb")
    if server is None:
        own_tmp.remove(tmp)
        return
    with _LOCK:
        old = _PREPARED.pop(_key(workspace), None)
        _PREPARED[_key(workspace)] = server
    if old is not None:
        old.discard()


def spare(workspace: Path, tmp: Path, data: Path) -> PreparedServer | None:
    """For a check that had no prestarted server (and so no spare of one): a prestarted server in
    the runtime check's own directories (`data`: its database; `tmp`: its logs, appended):
    the check's restart (harness/verification/runtime_restart.py) hands it the new port, so the
    restart costs the app's start-up, not the framework's imports. None when prestarting is off, a
    workspace module would shadow a package it imports, or it could not be spawned."""
    from harness.speed.validity import prestart_shadowed

    if not enabled() or prestart_shadowed(Path(workspace)):
        return None
    server = _spawn(workspace, tmp, data, "ab")
    if server is not None:
        server.tmp = None   # the check's directories: the check removes them
    return server


def _spawn(workspace: Path, tmp: Path, data: Path, log_mode: str) -> PreparedServer | None:
    """The served app's process (app_server.spawn_waiting) with its database in `data` and its logs
    in `tmp`, opened with `log_mode`; None when it could not be spawned."""
    try:
        return spawn_waiting(workspace, data, (tmp / "stdout.log", log_mode), (tmp / "stderr.log", log_mode), tmp)
    except (SpawnError, OSError):
        return None


def take(workspace: Path) -> PreparedServer | None:
    """The workspace's prestarted server, if one is alive and may serve this workspace (the caller
    owns it from now on), with its spare for the restart spawned now: not when a workspace module
    would shadow a package it already imported (harness/speed/validity.py, `prestart_shadowed`) — a
    cold start would import the workspace's."""
    from harness.speed.validity import prestart_shadowed

    with _LOCK:
        prepared = _PREPARED.pop(_key(workspace), None)
    if prepared is not None and (not prepared.proc.alive() or prestart_shadowed(Path(workspace))):
        prepared.discard()
        return None
    if prepared is not None:
        prepared.spare = _spawn(workspace, prepared.tmp, prepared.data, "ab")
        if prepared.spare is not None:
            prepared.spare.tmp = None   # the check's directories: the server's owner removes them
    return prepared


def stop(workspace: Path | None = None) -> None:
    """Stop the prestarted servers nobody took (the workspace's, or all)."""
    with _LOCK:
        keys = [k for k in _PREPARED if workspace is None or k == _key(workspace)]
        gone = [_PREPARED.pop(k) for k in keys]
    for prepared in gone:
        prepared.discard()
