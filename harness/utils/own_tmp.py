"""Temporary directories a harness process owns, and the sweep of those a killed one left.

Every scratch directory the harness makes in the system temp directory (a sandbox's private
home and /tmp, a warm worker's evidence outboxes, the runtime check's database directory) is
named `harness-<kind>-<pid>-<random>` with the pid of the process that made it. That process
removes it when it is done; a SIGKILL cannot, so the first directory a harness process makes
also removes those whose maker is no longer running — the app's files a runtime check left in
its private /tmp included. Directories of a live pid, of another user, or not named so are left
alone. (A harness in another PID namespace sharing this /tmp would look dead: not supported.)
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from pathlib import Path

KINDS = ("sbx", "warm", "runtime", "out", "floor", "etc")
_NAME = re.compile(rf"harness-(?:{'|'.join(KINDS)})-(\d+)-[^/]+")
_swept = False
_sweep_lock = threading.Lock()


def make(kind: str) -> Path:
    """A new private directory `harness-<kind>-<pid>-…` in the temp directory (kind in KINDS)."""
    global _swept
    if kind not in KINDS:
        raise ValueError(f"unknown temporary directory kind: {kind}")
    if not _swept:
        with _sweep_lock:
            if not _swept:
                _swept = True
                sweep_stale()
    return Path(tempfile.mkdtemp(prefix=f"harness-{kind}-{os.getpid()}-"))


BESIDE = ".beside"   # in an own directory: the name of a neutral directory that goes with it
_BESIDE_NAME = re.compile(r"app-[A-Za-z0-9_]+")


def make_beside(owner: Path) -> Path:
    """A new directory `app-…` in the temp directory whose name says nothing of the harness (a served
    app's data directory, which the app sees: harness/verification/app_server.py), removed with
    `owner` (one of this process's `make` directories) by whoever removes that: the owner names it."""
    path = Path(tempfile.mkdtemp(prefix="app-"))
    (Path(owner) / BESIDE).write_text(path.name)
    return path


def remove(owner: Path) -> None:
    """Remove an own directory and the neutral one `make_beside` made with it."""
    _remove_beside(Path(owner))
    shutil.rmtree(owner, ignore_errors=True)


def _remove_beside(owner: Path) -> None:
    try:
        name = (owner / BESIDE).read_text().strip()
    except OSError:
        return
    if _BESIDE_NAME.fullmatch(name):
        shutil.rmtree(owner.parent / name, ignore_errors=True)


def _alive(pid: int) -> bool:
    """True while `pid` runs; a zombie (killed, not yet reaped by its parent) is dead: it makes
    and removes nothing any more."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def sweep_stale(root: str | os.PathLike[str] | None = None) -> list[Path]:
    """Remove this user's `harness-<kind>-<pid>-…` directories under `root` (default: the temp
    directory) whose pid is not running; the removed paths."""
    removed = []
    try:
        entries = list(os.scandir(root or tempfile.gettempdir()))
    except OSError:
        return removed
    for entry in entries:
        match = _NAME.fullmatch(entry.name)
        if not match or int(match[1]) == os.getpid() or _alive(int(match[1])):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
        except OSError:
            continue
        remove(Path(entry.path))
        removed.append(Path(entry.path))
    return removed
