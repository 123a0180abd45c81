"""Warm verification: one contained worker per workspace that forks a fresh pytest per command.

Mechanism (stdlib only): the worker (worker.py) is started through `runner.spawn`, so it has
the same bubblewrap/fallback containment, env allowlist, death signal and leftover sweep as any
command; it talks to the harness over a Unix socketpair, and each command's stdout/stderr files
and digest pipe travel as SCM_RIGHTS file descriptors. An `os.fork` loop was chosen over
`multiprocessing.forkserver`: the forkserver runs outside our sandbox argv, has no way to take
per-command fds at chosen numbers, and hides the child's process group from the kill logic.

`execute_warm` returns None whenever the command must run cold: not a `python -m pytest` argv,
HARNESS_WARM=0, a requirements.txt naming a package the worker did not import, or a worker that
crashed (it is discarded; the next command starts a new one).
"""

from __future__ import annotations

import atexit
import json
import os
import shlex
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from harness.sandbox import runner
from harness.sandbox.runner import ExecResult
from harness.speed.warm import rewrite_cache
# What the worker imports (and memoizes); tests and callers read these names from here too.
from harness.speed.warm.preload import HARNESS_DEPS, IMPORT_REWRITTEN, LAZY_IMPORTS, PRELOAD, REWRITE_ONCE  # noqa: F401
from harness.utils import own_tmp
from harness.utils.requirements_txt import requirement_names  # the coverage check in `eligible`

ENV_WARM = "HARNESS_WARM"  # "0": every command runs cold
WORKER_SCRIPT = Path(__file__).with_name("worker.py")
READY_TIMEOUT_S = 120.0  # imports under a heavily loaded machine
REPLY_MARGIN_S = 10.0
# Expected files (WarmWorker.expect) go in messages of about this many characters; a message
# larger than EXPECT_MAX_BYTES (a huge file) is not sent.
EXPECT_BATCH_CHARS = 64_000
EXPECT_MAX_BYTES = 160_000  # below the socket's default send buffer (~208 KiB) and the worker's MAX_MSG
EXPECT_SNDBUF = 4 << 20     # asked for (the kernel caps it at net.core.wmem_max)


def warm_enabled() -> bool:
    """HARNESS_WARM=0 or HARNESS_SPEED=0 (harness/utils/speed_switch.py): every command runs cold."""
    from harness.utils.speed_switch import warm_on

    return warm_on()


class WarmWorker:
    """One live worker for one workspace; `run` serves a command or returns None when it crashed."""

    def __init__(self, workspace: Path, env: Mapping[str, str], wait: bool = True, also: Iterable[Path] = ()):
        """Spawn the worker; with `wait` (default) block until it has imported everything, else the
        first `ready()` call waits (a worker started in the background at the start of a run).
        `also`: directories its sandbox binds (read-only, like the workspace) beside the workspace,
        whose commands it serves too (the run's audit scratch directory, see harness/audit/scratch.py)."""
        self.workspace = Path(os.path.realpath(workspace))
        self.also = [Path(os.path.realpath(p)) for p in also]
        self._lock = threading.Lock()
        self._ready_lock = threading.Lock()
        self.env = dict(env)
        self.outroot = own_tmp.make("warm")
        modules = [m for mods in PRELOAD.values() for m in mods] + list(HARNESS_DEPS) + list(LAZY_IMPORTS)
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.log = tempfile.TemporaryFile()
        try:
            self.proc = runner.spawn([sys.executable, str(WORKER_SCRIPT), str(theirs.fileno()),
                                      *rewrite_cache.worker_options(self.outroot, REWRITE_ONCE), *modules,
                                      "--rewrite", *REWRITE_ONCE, "--import-rewritten", *IMPORT_REWRITTEN],
                                     workspace=self.workspace, cwd=self.workspace, env=self.env,
                                     writable=[self.outroot], readonly=self.also, stdout=self.log,
                                     stderr=self.log, pass_fds=(theirs.fileno(),))
        finally:
            theirs.close()
        self.imported: set[str] = set()
        self.covers: set[str] = set()
        self.clones: list[WarmWorker] = []
        self._ready: bool | None = None  # None: its ready message has not been read yet
        if wait and not self.ready():
            tail = self.log_tail()      # read before stop() closes the log
            self.stop()
            raise RuntimeError(f"warm worker did not start: {tail}")

    def ready(self) -> bool:
        """Wait (once) for the worker's ready message; False when it never came. Two threads may ask
        at once (two audit lanes finding the same prestarted worker): one reads, the other waits."""
        with self._ready_lock:
            if self._ready is None:
                reply = self._reply(READY_TIMEOUT_S)
                self._ready = bool(reply and reply.get("ready"))
                if self._ready:
                    self.memo_source = reply.get("rewrite_cache")  # "hit", "miss" or "off"
                    rewrite_cache.keep(self.outroot, REWRITE_ONCE)  # before any command runs in it
                    self.imported = set(reply["imported"])
                    self.covers = {name for name, mods in PRELOAD.items() if all(m in self.imported for m in mods)}
        return self._ready

    def outbox(self) -> Path:
        """A fresh evidence directory the worker (and so its children) can write."""
        return Path(tempfile.mkdtemp(prefix="harness-out-", dir=self.outroot))

    def alive(self) -> bool:
        return self.proc.alive()

    def run(self, argv: list[str], cwd: Path, env: Mapping[str, str], timeout_s: float,
            stdout: int, stderr: int, pass_fds: Iterable[int], writable: Iterable[Path] = ()) -> dict | None:
        """Serve one command; {"exit_code", "timed_out"} or None when the worker died meanwhile.
        `writable`: its outboxes (from `outbox()`), the only part of the outroot its child may write.
        One command at a time: a second thread waits (its reply could otherwise be the first's)."""
        with self._lock:
            return self._run(argv, cwd, env, timeout_s, stdout, stderr, pass_fds, writable)

    def _top_outroot(self) -> Path:
        return self.outroot

    def _run(self, argv, cwd, env, timeout_s, stdout, stderr, pass_fds, writable=()) -> dict | None:
        extra = list(pass_fds)
        request = {"args": argv[3:], "cwd": str(cwd), "env": dict(env), "timeout_s": timeout_s,
                   "extra_fd_targets": extra, "outroot": os.path.realpath(self._top_outroot()),
                   "writable": [os.path.realpath(p) for p in writable]}
        try:
            socket.send_fds(self._sock, [json.dumps(request).encode()], [stdout, stderr, *extra])
        except OSError:
            return None
        return self._reply(timeout_s + runner.TERM_GRACE_S + REPLY_MARGIN_S)

    def expect(self, files: Mapping[str, str]) -> int:
        """Tell the worker the files (workspace-relative path -> text) about to be written: it
        memoizes them while its children run (worker._expect). No reply; what the socket
        cannot take now is dropped (only time is lost). How many files were sent."""
        root, sent, batch, size = str(self.workspace), 0, [], 0
        messages = []
        for rel, text in files.items():
            if rel.endswith(".py"):
                batch.append([root, rel, text])
                size += len(text)
            if batch and size >= EXPECT_BATCH_CHARS:
                messages.append(batch)
                batch, size = [], 0
        messages += [batch] if batch else []
        with self._lock:
            try:  # room for a large app's files while the worker is still importing (best effort)
                self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, EXPECT_SNDBUF)
            except OSError:
                pass
            for batch in messages:
                data = json.dumps({"expect": batch}).encode()
                if len(data) > EXPECT_MAX_BYTES:
                    continue
                try:
                    self._sock.send(data, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    break
                except OSError:
                    continue
                sent += len(batch)
        return sent

    def _reply(self, timeout_s: float) -> dict | None:
        self._sock.settimeout(timeout_s)
        try:
            data = self._sock.recv(1 << 16)
        except OSError:
            return None
        return json.loads(data) if data else None

    def clone(self, workspace: Path) -> WarmWorker | None:
        """A second worker for `workspace` (a directory this worker's sandbox binds, `also`), forked
        from this one: the same sandbox, imports and memos, so it costs a fork, not a start-up, and
        serves its commands while this one serves others (the audit's lanes). None when it failed."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with self._lock:
            try:
                socket.send_fds(self._sock, [json.dumps({"clone": True}).encode()], [theirs.fileno()])
                reply = self._reply(READY_TIMEOUT_S)
            except OSError:
                reply = None
            finally:
                theirs.close()
        if not (reply and "clone" in reply):
            mine.close()
            return None
        twin = ClonedWorker(self, workspace, mine)
        if not twin.ready():
            twin.stop()
            return None
        self.clones.append(twin)
        return twin

    def log_tail(self) -> str:
        return runner._tail(self.log)[-500:]

    def stop(self) -> None:
        """End the worker, its clones and everything it started; remove its scratch directory."""
        for twin in self.clones:
            twin.stop()
        self._sock.close()
        self.proc.stop()
        self.log.close()
        shutil.rmtree(self.outroot, ignore_errors=True)


class ClonedWorker(WarmWorker):
    """A worker forked inside a live worker's sandbox (`WarmWorker.clone`): it runs in the parent's
    process tree and sandbox (`proc`, `log` are the parent's), answers on its own socket, and ends
    when that closes — or with the parent."""

    def __init__(self, parent: WarmWorker, workspace: Path, sock: socket.socket):  # noqa: D107 - no spawn
        self.parent = parent
        self.workspace = Path(os.path.realpath(workspace))
        self.also: list[Path] = []
        self.clones: list[WarmWorker] = []
        self._lock = threading.Lock()
        self._ready_lock = threading.Lock()
        self.env = parent.env
        self.outroot = Path(tempfile.mkdtemp(prefix="clone-", dir=parent.outroot))
        self._sock = sock
        self.log = parent.log
        self.proc = parent.proc
        self.imported: set[str] = set()
        self.covers: set[str] = set()
        self._ready = None

    def alive(self) -> bool:
        return self._sock.fileno() != -1 and self.parent.alive()

    def _top_outroot(self) -> Path:
        return self.parent.outroot  # the directory the sandbox binds (this one lies inside it)

    def stop(self) -> None:
        """End the clone: its socket is shut down before it is closed, so a thread waiting for a
        reply wakes at once and the clone sees the hang-up and kills the session it runs
        (worker.serve_one) instead of serving it to its end. Safe to call twice, from two threads."""
        try:
            self.parent.clones.remove(self)
        except ValueError:
            pass
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        shutil.rmtree(self.outroot, ignore_errors=True)


_WORKERS: dict[tuple[str, tuple], WarmWorker] = {}


def _key(workspace: Path, env: Mapping[str, str]) -> tuple[str, tuple]:
    return os.path.realpath(workspace), tuple(sorted(env.items()))


def _serving(workspace: Path, env: Mapping[str, str], wait: bool = True) -> WarmWorker | None:
    """A live worker whose sandbox binds `workspace` beside its own (`also`), if any; ready (waited
    for) unless `wait` is False, then only not known to have failed."""
    real, envkey = _key(workspace, env)
    for (_root, wenv), worker in list(_WORKERS.items()):
        binds = any(real == str(d) or real.startswith(str(d) + os.sep) for d in worker.also)
        if wenv == envkey and binds and not isinstance(worker, ClonedWorker):
            up = worker.ready() if wait else worker._ready is not False
            return worker if up and worker.alive() else None
    return None


def serves(workspace: Path, env: Mapping[str, str]) -> bool:
    """True when a live worker of another workspace binds `workspace` too and will serve it
    (without waiting for a worker still importing)."""
    return _serving(workspace, env, wait=False) is not None


def worker_for(workspace: Path, env: Mapping[str, str]) -> WarmWorker | None:
    """The live worker for this workspace and environment — its own, or a clone of one whose sandbox
    binds it too (`also`: the audit's lanes, each served beside the others) — started on first
    use; None if it cannot start."""
    key = _key(workspace, env)
    worker = _WORKERS.get(key)
    if worker is not None and not (worker.ready() and worker.alive()):
        discard(worker)  # a dead clone of a live worker is replaced by a new clone below
        worker = None
    if worker is None and (shared := _serving(workspace, env)) is not None:
        twin = shared.clone(workspace)  # its own server: the binding worker may be serving another lane
        if twin is None:
            return shared
        _WORKERS[key] = twin
        return twin
    if worker is None:
        try:
            worker = WarmWorker(workspace, env)
        except (RuntimeError, runner.SpawnError, OSError):
            return None
        _WORKERS[key] = worker
    return worker


def prestart(workspace: Path, env: Mapping[str, str], also: Iterable[Path] = ()) -> None:
    """Start the worker of `workspace` and `env` in the background, without waiting for its imports:
    at the start of a run, so they overlap the spec, plan and first generation instead of delaying
    the first verification. Does nothing when warm verification is off or the worker already exists;
    a worker that fails to start is noticed (and replaced, or the command runs cold) on first use."""
    key = _key(workspace, env)
    if not warm_enabled() or key in _WORKERS:
        return
    try:
        _WORKERS[key] = WarmWorker(workspace, env, wait=False, also=also)
    except (RuntimeError, runner.SpawnError, OSError):
        pass


def started(workspace: Path, env: Mapping[str, str]) -> bool:
    """True when a worker of `workspace` and `env` was started and not discarded (ready or still importing)."""
    return _key(workspace, env) in _WORKERS


def expect(workspace: Path, env: Mapping[str, str], files: Mapping[str, str]) -> int:
    """Send `files` (about to be written to `workspace`) to its worker, started or still importing
    (WarmWorker.expect); 0 when there is none."""
    worker = _WORKERS.get(_key(workspace, env))
    if worker is None or worker._ready is False or not worker.alive():
        return 0
    return worker.expect(files)


def discard(worker: WarmWorker) -> None:
    """Stop `worker` (and its clones) and forget it (a crashed worker is replaced on the next command)."""
    for key, live in list(_WORKERS.items()):
        if live is worker or (isinstance(live, ClonedWorker) and live.parent is worker):
            del _WORKERS[key]
    worker.stop()


def stop_workers(workspace: Path | None = None) -> None:
    """Stop the workers of `workspace` (all when None): at the end of a run."""
    real = os.path.realpath(workspace) if workspace is not None else None
    for key, worker in list(_WORKERS.items()):
        if real is None or key[0] == real:
            discard(worker)


atexit.register(stop_workers)


def eligible(argv: list[str], workspace: Path, covers: set[str] | None = None) -> bool:
    """True for `python -m pytest ...` with our interpreter in a workspace the worker covers."""
    if not warm_enabled() or argv[:3] != [sys.executable, "-m", "pytest"]:
        return False
    if covers is None:
        return True
    try:
        text = (Path(workspace) / "requirements.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    return requirement_names(text) <= covers


def execute_warm(worker: WarmWorker, argv: list[str], *, cwd: Path, env: Mapping[str, str],
                 timeout_s: float, pass_fds: Iterable[int] = (), writable: Iterable[Path] = ()) -> ExecResult | None:
    """Run `argv` in a fresh child of `worker`, as `runner.execute` would; None when the worker crashed."""
    from harness.sandbox.runner import OUTPUT_TAIL_CHARS, _tail

    shown = shlex.join(argv)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        reply = worker.run(argv, Path(os.path.realpath(cwd)), env, timeout_s, out.fileno(), err.fileno(), pass_fds,
                           writable)
        if reply is None or "setup_failed" in reply:
            discard(worker)  # crashed, or its child could not become pytest: the caller runs it cold
            return None
        duration_ms = int((time.monotonic() - start) * 1000)
        stderr = _tail(err)
        if reply["timed_out"]:
            note = f"command timed out after {timeout_s:g}s: {shown}"
            stderr = (f"{stderr.rstrip()}\n{note}" if stderr.strip() else note)[-OUTPUT_TAIL_CHARS:]
        return ExecResult(reply["exit_code"], _tail(out), stderr, duration_ms, reply["timed_out"], shown,
                          worker.proc.isolation)
