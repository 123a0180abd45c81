"""The one place processes that run workspace code are started and ended.

`spawn` starts a contained process and returns a `SandboxProcess` handle (long-lived servers and
workers use it directly); `execute` runs a command to completion and returns an `ExecResult`,
never raising for a failing or timed-out command. Either way, when the process ends the handle
kills everything it left behind (see procs.py) and removes its private HOME/TMPDIR.
"""

from __future__ import annotations

import functools
import os
import shlex
import select
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from harness.sandbox import procs
from harness.sandbox.bytecode import BytecodeError, drop_caches
from harness.sandbox.env import child_env, served_env
from harness.sandbox.isolation import BWRAP, ENV_SHARED, NONE, bwrap_argv, bwrap_path, shared_dir
from harness.utils import own_tmp

OUTPUT_TAIL_CHARS = 4000
DEFAULT_TIMEOUT_S = 120.0
TERM_GRACE_S = 1.0
POLL_S = 0.02
_LIVE: set[int] = set()  # leader pids of handles not stopped yet: never another command's leftovers


class SpawnError(Exception):
    """The command could not be started; `exit_code` follows the shell convention (126/127)."""

    def __init__(self, exit_code: int, message: str):
        super().__init__(message)
        self.exit_code = exit_code
        self.message = message


@dataclass(frozen=True)
class ExecResult:
    """Outcome of one command. `exit_code` is None only when the command was killed on timeout."""

    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: int
    timed_out: bool
    command: str
    isolation: str = NONE

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    # Dict-style access: SPEC describes execute() as returning {exit_code, stdout, stderr, duration_ms}.
    def __getitem__(self, key: str) -> Any:
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        return getattr(self, key)

    def keys(self) -> list[str]:
        return list(self.__dataclass_fields__)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self.__dataclass_fields__ else default

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class SandboxProcess:
    """A running contained process. `stop()` ends it and all it started; safe to call twice."""

    def __init__(self, popen: subprocess.Popen, *, spawn_id: str, scratch: Path, isolation: str):
        self.popen = popen
        self.pid = popen.pid
        self.spawn_id = spawn_id
        self.scratch = scratch
        self.isolation = isolation
        self.started_ticks = procs.start_ticks(popen.pid)
        self.returncode: int | None = None
        self.after_stop: list = []   # called once it is stopped (e.g. joining the threads reading its output)
        self._stopped = False
        _LIVE.add(self.pid)

    def alive(self) -> bool:
        """True while the leader runs (WNOWAIT: an exited leader stays a zombie until `stop`)."""
        if self.returncode is not None:
            return False
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
        except ChildProcessError:
            return False

    def wait(self, timeout_s: float | None = None) -> bool:
        """Wait up to `timeout_s` for the leader to exit; True when it did (it is not reaped yet).
        It waits on the leader's pidfd (readable once it exits: seen at once, not up to POLL_S
        later), or polls where the kernel has none."""
        deadline = None if timeout_s is None else time.monotonic() + max(timeout_s, 0.0)
        pidfd = _pidfd(self.pid)
        try:
            while self.alive():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                step = POLL_S if pidfd is None else 1.0
                step = step if left is None else min(step, left)
                if pidfd is None:
                    time.sleep(step)
                else:
                    select.select([pidfd], [], [], step)
            return True
        finally:
            if pidfd is not None:
                os.close(pidfd)

    def stop(self, grace_s: float = TERM_GRACE_S) -> int | None:
        """SIGTERM, then SIGKILL after `grace_s`; kill every leftover; the leader's exit code."""
        if self._stopped:
            return self.returncode
        self._stopped = True
        if self.alive():
            self._terminate()
            self.wait(grace_s)
        _signal_group(self.pid, signal.SIGKILL)  # the leader's group: grandchildren that stayed in it
        self.returncode = self.popen.wait()
        _LIVE.discard(self.pid)
        procs.kill_all(functools.partial(procs.find_leftovers, spawn_id=self.spawn_id,
                                         orphans_since=self.started_ticks, exclude=frozenset(_LIVE)))
        own_tmp.remove(self.scratch)
        for done in self.after_stop:
            done()
        return self.returncode

    def _terminate(self) -> None:
        """SIGTERM what runs the workspace code. bwrap forwards no signal, and SIGTERM would kill it
        (and, through --die-with-parent, everything inside) at once: signal the processes inside."""
        inside = procs.find_leftovers(spawn_id=self.spawn_id, roots=(self.pid,)) - {self.pid}
        for pid in inside:
            try:
                os.kill(pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
        if self.isolation != BWRAP:
            _signal_group(self.pid, signal.SIGTERM)

    def __enter__(self) -> SandboxProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


@functools.cache
def _subreaper() -> bool:
    return procs.become_subreaper()


def resolve_program(name: str, cwd: Path, path_var: str) -> str:
    """The absolute executable `name` names (as a shell would find it), or SpawnError 126/127."""
    found = str(cwd / name) if "/" in name else shutil.which(name, path=path_var)
    if found is None or not os.path.exists(found):
        raise SpawnError(127, f"command not found: {name}")
    if os.path.isdir(found) or not os.access(found, os.X_OK):
        raise SpawnError(126, f"permission denied: {name}")
    return os.path.abspath(found)


SERVED_HOME = "/home/app"   # a served app's HOME under bwrap (app_server.py), judged or not


def spawn(argv: list[str], *, workspace: Path, cwd: Path | None = None, env: Mapping[str, str] | None = None,
          network: bool = False, writable: Iterable[Path] = (), stdout: IO[bytes] | int = subprocess.DEVNULL,
          stderr: IO[bytes] | int = subprocess.DEVNULL, pass_fds: Iterable[int] = (),
          readonly: Iterable[Path] = (), served: Mapping[str, Path] | None = None,
          stdin: int = subprocess.DEVNULL) -> SandboxProcess:
    """Start `argv` contained: bwrap when available, else the env/subreaper/death-signal fallback.

    Under bwrap `writable` (scratch outside the workspace) and its private HOME and /tmp are the only
    places it may write: the workspace and `readonly` are bound read-only. `network` lets it share
    the host network (servers the harness probes), otherwise it has none under bwrap. Without bwrap
    a harness running as root starts it without capabilities (procs.drop_capabilities). Raises
    SpawnError when the program cannot be started.

    `served` (path inside -> host directory): a built app served by harness/verification/app_server.py,
    for the runtime check and for `builder serve` alike. Nothing it can observe may come from the
    harness: its environment holds none of the bookkeeping variables (bwrap carries them and unsets
    them for the app; without bwrap they are left out and its processes are found as descendants),
    and under bwrap it runs as the user's own uid/gid with HOME at SERVED_HOME and each directory
    bound at its fixed path inside — never a harness temp-directory name.
    """
    _subreaper()
    workspace = Path(os.path.realpath(workspace))
    workdir = Path(os.path.realpath(cwd or workspace))
    bwrap = bwrap_path()
    spawn_id = uuid.uuid4().hex
    scratch = own_tmp.make("sbx")
    (scratch / "home").mkdir()
    (scratch / "tmp").mkdir()
    try:
        shared = {ENV_SHARED: shared_dir()} if shared_dir() else {}
        marks = {procs.ENV_SPAWN: spawn_id, procs.ENV_SCOPE: procs.scope_of(workspace),
                 "HARNESS_ISOLATION": BWRAP if bwrap else NONE}
        tmpdir = "/tmp" if bwrap else str(scratch / "tmp")
        if served is None:
            full_env = child_env({**(env or {}), **marks, **shared}, home=str(scratch / "home"), tmpdir=tmpdir)
        else:   # (the shared directory is a hook of the harness's own tests, whoever serves: never set for a build)
            full_env = {**served_env(env, home=SERVED_HOME if bwrap else str(scratch / "home"), tmpdir=tmpdir),
                        **shared, **(marks if bwrap else {})}   # bwrap's own environment: the sweeps find it
        try:   # the source is what runs: no bytecode cache of the workspace is ever loaded (bytecode.py)
            drop_caches(workspace)
        except BytecodeError as exc:
            raise SpawnError(126, str(exc)) from None
        program = resolve_program(argv[0], workdir, full_env["PATH"])
        command = [program, *argv[1:]]
        if bwrap and served is None:
            command = bwrap_argv(bwrap, command, workspace=workspace, cwd=workdir,
                                 writable=[scratch, *map(Path, writable)], network=network,
                                 readonly=[Path(os.path.realpath(p)) for p in readonly])
        elif bwrap:
            home = own_tmp.make_beside(scratch)   # a neutral name: the app sees it in /proc/self/mountinfo
            mounts = [(home, SERVED_HOME), *((Path(host), at) for at, host in served.items())]
            inside = next((at for at, host in served.items() if os.path.realpath(host) == str(workdir)), workdir)
            command = bwrap_argv(bwrap, command, workspace=workspace, cwd=inside, writable=map(Path, writable),
                                 network=network, readonly=[Path(os.path.realpath(p)) for p in readonly],
                                 mounts=mounts, unset=list(marks), identity=(os.getuid(), os.getgid()))
        popen = subprocess.Popen(command, shell=False, cwd=workdir, env=full_env, stdin=stdin,
                                 stdout=stdout, stderr=stderr, start_new_session=True, pass_fds=tuple(pass_fds),
                                 preexec_fn=functools.partial(procs.die_with_parent, os.getpid(),
                                                              drop_caps=bwrap is None))
    except SpawnError:
        own_tmp.remove(scratch)
        raise
    except OSError as exc:
        own_tmp.remove(scratch)
        raise SpawnError(126, f"cannot execute {argv[0]}: {exc.strerror or exc}") from None
    return SandboxProcess(popen, spawn_id=spawn_id, scratch=scratch, isolation=BWRAP if bwrap else NONE)


def execute(cmd: str | list[str], *, workspace: Path, cwd: Path | None = None,
            timeout_s: float = DEFAULT_TIMEOUT_S, env: Mapping[str, str] | None = None,
            writable: Iterable[Path] = (), pass_fds: Iterable[int] = ()) -> ExecResult:
    """Run `cmd` (shlex-split, never a shell) contained, without network, with a hard timeout."""
    shown = cmd if isinstance(cmd, str) else shlex.join(cmd)
    label = BWRAP if bwrap_path() else NONE
    try:
        argv = shlex.split(cmd) if isinstance(cmd, str) else [str(a) for a in cmd]
    except ValueError as exc:
        return ExecResult(2, "", f"invalid command: {exc}", 0, False, shown, label)
    if not argv:
        return ExecResult(127, "", "command not found: (empty command)", 0, False, shown, label)
    # Output goes to temp files, not pipes, so a straggler holding the pipe can never block us.
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        try:
            proc = spawn(argv, workspace=workspace, cwd=cwd, env=env, writable=writable,
                         stdout=out, stderr=err, pass_fds=pass_fds)
        except SpawnError as exc:
            return ExecResult(exc.exit_code, "", exc.message, 0, False, shown, label)
        with proc:
            timed_out = not proc.wait(timeout_s)
            code = proc.stop()
        duration_ms = int((time.monotonic() - start) * 1000)
        stderr = _tail(err)
        if timed_out:
            note = f"command timed out after {timeout_s:g}s: {shown}"
            stderr = (f"{stderr.rstrip()}\n{note}" if stderr.strip() else note)[-OUTPUT_TAIL_CHARS:]
        return ExecResult(None if timed_out else code, _tail(out), stderr, duration_ms, timed_out, shown,
                          proc.isolation)


def sweep_leftovers(workspace: Path, *more: Path) -> list[int]:
    """Kill every process still running for `workspace` and the `more` workspaces (left by a
    builder that was SIGKILLed), in one sweep."""
    return procs.sweep_scope(procs.scope_of(workspace), frozenset(_LIVE), *(procs.scope_of(w) for w in more))


def _tail(fh: IO[bytes], limit: int = OUTPUT_TAIL_CHARS) -> str:
    """The last `limit` characters written to `fh` (decoded as UTF-8, invalid bytes replaced)."""
    size = fh.seek(0, os.SEEK_END)
    fh.seek(max(0, size - limit * 4))
    return fh.read().decode("utf-8", errors="replace")[-limit:]


def _pidfd(pid: int) -> int | None:
    """A pidfd of our unreaped child `pid`, or None (no pidfd_open: kernel < 5.3, or it is gone)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None
