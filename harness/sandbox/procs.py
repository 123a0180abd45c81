"""Process containment without an OS sandbox: subreaper, death signal, tree kill and sweeps.

Every sandboxed process carries two markers in its environment: `HARNESS_SPAWN=<id>` (this one
command) and `HARNESS_SCOPE=<scope>` (the workspace it runs for). `/proc/<pid>/environ` keeps the
environment a process was started with, so a detached grandchild that `setsid`s away from the
process group is still found by its markers. The harness is a child subreaper, so an orphan that
also cleared its environment is re-parented to us and found as our own child born after the spawn.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import signal
from pathlib import Path

ENV_SPAWN = "HARNESS_SPAWN"
ENV_SCOPE = "HARNESS_SCOPE"
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
_LAST_CAP = 63  # dropping a capability the kernel does not know fails harmlessly (EINVAL)
MAX_KILL_ROUNDS = 20

_libc = None


def _prctl(option: int, arg: int) -> bool:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc.prctl(option, arg, 0, 0, 0) == 0


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux ≥ 3.4); False if refused."""
    try:
        return _prctl(PR_SET_CHILD_SUBREAPER, 1)
    except (OSError, AttributeError):
        return False


def die_with_parent(parent_pid: int, drop_caps: bool = False) -> None:
    """preexec_fn: SIGKILL this child when the harness dies (and now, if it already has); with
    `drop_caps`, the program it executes runs without capabilities (drop_capabilities)."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(137)
    if drop_caps:
        drop_capabilities()


def drop_capabilities() -> None:
    """Empty the capability bounding set (needs CAP_SETPCAP: only a root process has caps to drop),
    so what this process executes next — even as uid 0 — holds no capability: no CAP_SYS_PTRACE to
    read a non-dumpable harness's memory, no CAP_DAC_OVERRIDE to read files of other users."""
    if os.geteuid() != 0:
        return
    for cap in range(_LAST_CAP + 1):
        _prctl(PR_CAPBSET_DROP, cap)


def make_nondumpable() -> bool:
    """PR_SET_DUMPABLE 0: no process without CAP_SYS_PTRACE — a same-uid child included — may read
    this process's memory (/proc/<pid>/mem), attach to it or take its fds (pidfd_getfd)."""
    try:
        return _prctl(PR_SET_DUMPABLE, 0)
    except (OSError, AttributeError):
        return False


def scope_of(workspace: Path | str) -> str:
    """The sweep scope of a workspace: stable for one run directory, distinct across runs."""
    return hashlib.sha256(os.path.realpath(workspace).encode()).hexdigest()[:16]


def _read_proc(pid: int, name: str) -> bytes | None:
    """The bytes of /proc/<pid>/<name>, None when unreadable or gone. A sweep reads two files of
    every process on the machine, several times at the end of a run: a plain fd, no pathlib object
    or text decoding, costs about a third as much (#46)."""
    try:
        fd = os.open(f"/proc/{pid}/{name}", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return b"".join(chunks)


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(ppid, start time in clock ticks, state) of `pid`, or None when it is gone."""
    raw = _read_proc(pid, "stat")
    if not raw:
        return None
    fields = raw.rsplit(b")", 1)[1].split()
    return int(fields[1]), int(fields[19]), fields[0].decode("ascii", "replace")


def start_ticks(pid: int) -> int:
    """The start time of `pid` in clock ticks since boot (0 when unknown)."""
    info = _stat(pid)
    return info[1] if info else 0


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _has_any_marker(pid: int, markers: list[bytes]) -> bool:
    """One read of the environment for all `markers`."""
    raw = _read_proc(pid, "environ")
    if raw is None:
        return False
    entries = raw.split(b"\0")
    return any(m in entries for m in markers)


def find_leftovers(*, spawn_id: str | None = None, scope: str | None = None, roots: tuple[int, ...] = (),
                   orphans_since: int | None = None, exclude: frozenset[int] = frozenset(),
                   scopes: tuple[str, ...] = ()) -> set[int]:
    """Live pids carrying the markers (the spawn's, the scope's or any of `scopes`'), descending
    from `roots`, or our children born since a tick."""
    me = os.getpid()
    markers = [f"{ENV_SPAWN}={spawn_id}".encode()] if spawn_id else []
    markers += [f"{ENV_SCOPE}={one}".encode() for one in ((scope,) if scope else ()) + tuple(scopes)]
    table = {pid: info for pid in _pids() if pid != me and (info := _stat(pid)) is not None}
    found = {pid for pid in roots if pid in table}
    for pid, (ppid, started, _state) in table.items():
        if pid in exclude:
            continue
        if markers and _has_any_marker(pid, markers):
            found.add(pid)
        elif orphans_since is not None and ppid == me and started >= orphans_since:
            found.add(pid)
    children: dict[int, list[int]] = {}
    for pid, (ppid, _s, _st) in table.items():
        children.setdefault(ppid, []).append(pid)
    stack = list(found)
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    # A zombie needs no signal, only reaping, and only its parent can reap it.
    return {pid for pid in found - exclude if table[pid][2] != "Z" or table[pid][0] == me}


def kill_all(find) -> list[int]:
    """SIGKILL whatever `find()` returns until it returns nothing; reap the ones that are our children."""
    killed: list[int] = []
    for _ in range(MAX_KILL_ROUNDS):
        pids = find()
        if not pids:
            break
        for pid in sorted(pids):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            _reap(pid)
            killed.append(pid)
    return killed


def _reap(pid: int) -> None:
    """Collect `pid` if it is our (re-parented) child, so a subreaper harness leaves no zombies."""
    info = _stat(pid)
    if info is None or info[0] != os.getpid():
        return
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def sweep_scope(scope: str, exclude: frozenset[int] = frozenset(), *more: str) -> list[int]:
    """Kill every process left behind for a workspace (e.g. by a SIGKILLed builder) — and for the
    workspaces of `more` scopes, in the same passes over /proc; the pids killed."""
    return kill_all(lambda: find_leftovers(scopes=(scope, *more), exclude=exclude))
