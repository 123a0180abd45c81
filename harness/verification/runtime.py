"""Runtime verification (SPEC M10): start the generated app on a free port and speak HTTP to it.

`verify_runtime` never raises for a broken app: every outcome is a `RuntimeResult`. The server is
started by app_server.py, the launcher `builder serve` uses for the app's user too (the same
sandbox, identity, environment and working directory: only the port and the host directory of its
data differ), and is always stopped in `finally`; its SQLite file lives in a temp directory outside
the workspace, so verification leaves the workspace untouched.
"""

from __future__ import annotations

import re
import shutil
import socket
import sys
import time
from pathlib import Path
from typing import Any

from harness.models.enums import FailureType
from harness.models.results import RuntimeCheck, RuntimeResult
from harness.sandbox.local import LocalSandbox
from harness.sandbox import workspace_guard
from harness.sandbox.isolation import isolation_label
from harness.sandbox.workspace_guard import WorkspaceGuard
from harness.sandbox.runner import SandboxProcess, SpawnError
from harness.utils import own_tmp
from harness.utils.workspace_layout import workspace_files
from harness.verification import app_server
from harness.verification.app_socket import Reserved, foreign_listener, free_port
from harness.verification.http_probe import HttpResponse
from harness.verification.round_trips import probe as _probe, round_trip as _round_trip, round_trips as _round_trips  # noqa: F401
from harness.verification.runtime_restart import Held, restart_server
from harness.verification.sqlite_check import sqlite_opens

HOST = app_server.HOST
POLL_S = 0.01          # how often a starting server's port is tried (a refused connect costs ~0.1 ms)
STOP_GRACE_S = 3.0     # SIGTERM → SIGKILL grace period
LOG_TAIL_CHARS = 1500
_APP_ASSIGN = re.compile(r"^app\s*(?::[^=\n]*)?=", re.M)
_PORT_CONFLICT = re.compile(r"address already in use|EADDRINUSE", re.I)
_OPTIONAL_PATHS = ("/docs", "/api/health")


def detect_entry(workspace: Path) -> tuple[str, str] | None:
    """("python", "src.main:app") / ("python", "app:app") / ("node", "package.json") / None."""
    workspace = Path(workspace)
    for rel, target in (("src/main.py", "src.main:app"), ("app.py", "app:app")):
        path = workspace / rel
        # A regex, not ast: a main.py with a SyntaxError is still the entry point (and must fail at start).
        text = LocalSandbox(workspace).read_if_file(rel)
        if text is not None and _APP_ASSIGN.search(text):
            return "python", target
    if (workspace / "package.json").is_file():
        return "node", "package.json"
    return None


class _Record:
    """Checks and evidence collected during one verification."""

    def __init__(self) -> None:
        self.checks: list[RuntimeCheck] = []
        self.evidence: list[str] = []
        self.acceptance: list | None = None    # the black-box leg's checks (harness/acceptance)
        self.acceptance_ms = 0

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append(RuntimeCheck(name=name, ok=ok, detail=detail))
        return ok

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def result(self, started: float, failure: FailureType | None = None, hint: str = "") -> RuntimeResult:
        status = "PASS" if failure is None and self.ok else "FAIL"
        return RuntimeResult(status=status, checks=self.checks, evidence=self.evidence,
                             failure_type=None if status == "PASS" else (failure or FailureType.UNKNOWN),
                             hint=hint, duration_ms=int((time.monotonic() - started) * 1000),
                             acceptance=self.acceptance, acceptance_ms=self.acceptance_ms)


def declared_entry(workspace: Path, entry: str) -> tuple[str, str] | None:
    """("python", "pkg.mod:app") for a plan-declared entry whose module file exists, else None."""
    module = entry.partition(":")[0]
    if ":" not in entry or not module:
        return None
    base = Path(workspace) / module.replace(".", "/")
    return ("python", entry) if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file() else None


def verify_runtime(workspace: Path, steps: list | None = None, startup_timeout_s: float = 15.0,
                   task_hint: str = "", entry: str = "", acceptance: Any = None,
                   prepared=None, on_launch=None, spare=None) -> RuntimeResult:
    """Start the app, run the checks and round-trip `steps`, stop it; PASS iff every check is ok.
    `entry` ("module:attr") is the plan's declared entry point, when it declares one.
    `acceptance(base_url, round_trip_checks, db=, restart=)` runs the black-box leg (harness/acceptance)
    while the app is up: `db` its database file, `restart()` stops the app and starts it again on
    that file once (runtime_restart.py); its checks go to the result's `acceptance`, judged per
    requirement by the review.
    `prepared`: a server process whose imports are done and which has read nothing of the
    workspace yet (harness/speed/server_prestart.py, handed over by the speed door after its
    validity rule); the check owns it from here: it starts it, or discards it and starts cold.
    `on_launch(proc)`: told the server process once it runs (so a caller can stop a check early).
    `spare(workspace, tmp, data)`: a preloaded server for the acceptance leg's restart (server_prestart.spare),
    spawned when the leg starts unless `prepared` came with one (its `take_spare()`)."""
    started = time.monotonic()
    workspace = Path(workspace).resolve()
    rec = _Record()
    entry = (declared_entry(workspace, entry) if entry else None) or detect_entry(workspace)
    if entry is None:
        rec.check("entry point", False, "no src/main.py or app.py defining `app`, and no package.json")
        return rec.result(started, FailureType.CONFIG_ERROR, "add src/main.py defining `app = FastAPI()`")
    rec.check("entry point", True, f"{entry[0]} {entry[1]}")
    if entry[0] == "node" and shutil.which("npm") is None:
        rec.check("process alive", False, "npm is not installed: cannot start a Node app")
        return rec.result(started, FailureType.ENVIRONMENT_ERROR, "install Node.js/npm or use the FastAPI stack")
    listener = _reserve(entry)   # P1: the socket a Python app serves on is the harness's (app_socket.py)
    port = listener.port if isinstance(listener, Reserved) else listener
    command = _command(entry, port, workspace)
    if not isinstance(listener, Reserved) and _port_accepts(port):
        rec.check("port accepts", False, f"port {port} was taken by another process before the app started")
        return rec.result(started, FailureType.ENVIRONMENT_ERROR, _NOT_JUDGED)
    guard = WorkspaceGuard(workspace, active=workspace_guard.needed(isolation_label()))
    if prepared is not None and entry[0] != "python":
        prepared.discard()
        prepared = None
    if prepared is not None and not prepared.start(command[3:], listener):
        prepared.discard()  # it died before it was needed: start cold
        prepared = None
    tmp = prepared.tmp if prepared is not None else own_tmp.make("runtime")   # the check's: logs
    data = prepared.data if prepared is not None else own_tmp.make_beside(tmp)  # the app's: app.db
    held = Held(prepared.proc, prepared.take_spare()) if prepared is not None else Held(None)
    stage = "not started"
    try:
        if held.proc is None:
            held.proc = _launch(entry, listener, workspace, tmp, data, rec)
        _release(listener)   # the app's process holds the socket now
        if (proc := held.proc) is not None:
            if on_launch is not None:
                on_launch(proc)
            shown = _display(command).replace(str(workspace), "<workspace>").replace(
                app_server.FD_SLOT, f"<socket bound by the harness on {HOST}:{port}>")
            runner = "warm" if prepared is not None else "cold"
            rec.evidence.append(f"launched {shown} (pid {proc.pid}, isolation: {proc.isolation}, runner: {runner})")
            held.again = lambda: restart_server(held, _relaunch(entry, workspace, tmp, data),
                                                lambda p, lst: _wait_for_port(p, lst, startup_timeout_s),
                                                STOP_GRACE_S, rec.evidence, on_launch)
            preload = (lambda: held.preload(workspace, tmp, data, entry, spare)) if acceptance is not None else None
            stage = _exercise(proc, listener, list(steps or []), startup_timeout_s, data / "app.db", rec, acceptance,
                              held.restart, preload)
    finally:
        _release(listener)
        held.drop_spare()
        proc = held.proc
        exit_code = proc.stop(STOP_GRACE_S) if proc is not None else None
        stdout, stderr = _read(tmp / "stdout.log"), _read(tmp / "stderr.log")
        own_tmp.remove(tmp)
    if void := guard.violation():  # without bubblewrap: an app that wrote its workspace proves nothing
        rec.check("workspace unchanged", False, void)
    if rec.ok:
        return rec.result(started)
    return _failed(rec, stage, stdout, stderr, exit_code, workspace, task_hint, started,
                   port_number=not isinstance(listener, Reserved))


_NOT_JUDGED = ("another process on this machine held the app's port: nothing it answered was judged "
               "and the check did not retry; run it again")


def _reserve(entry: tuple[str, str]) -> Reserved | int:
    """What the app will serve on: a socket the harness bound (a Python app), else a port number
    (a Node app's `--port N`; `foreign_listener` then checks who listens on it)."""
    return Reserved(HOST) if entry[0] == "python" else free_port()


def _release(listener: Reserved | int) -> None:
    if isinstance(listener, Reserved):
        listener.release()


def _relaunch(entry: tuple[str, str], workspace: Path, tmp: Path, data: Path):
    """The restart's start (runtime_restart.py): a new socket (port), the same command and directories."""
    def launch():
        listener = _reserve(entry)
        port = listener.port if isinstance(listener, Reserved) else listener
        command = _command(entry, port, workspace)
        return (f"http://{HOST}:{port}", listener, command[3:],
                lambda: _launch(entry, listener, workspace, tmp, data, _Record(), mode="ab"))
    return launch


def _command(entry: tuple[str, str], port: int, workspace: Path) -> list[str]:
    # --app-dir: the app imports from the workspace while its working directory is its data
    # directory, so even a database path the app hard-codes never lands in the workspace.
    return app_server.command(entry, port, workspace)


def _launch(entry: tuple[str, str], listener: Reserved | int, workspace: Path, tmp: Path, data: Path,
            rec: _Record, mode: str = "wb") -> SandboxProcess | None:
    """Serve the app as `builder serve` would (app_server.launch); its output goes to the check's logs.
    It shares the host network so the harness can probe its port."""
    try:
        return app_server.launch(workspace, entry, listener, data, (tmp / "stdout.log", mode), (tmp / "stderr.log", mode))
    except (SpawnError, OSError) as exc:
        rec.check("process alive", False, f"could not start {entry[0]}: {getattr(exc, 'message', exc)}")
        return None


def _exercise(proc: SandboxProcess, listener: Reserved | int, steps: list, timeout_s: float, db: Path,
              rec: _Record, acceptance: Any = None, restart: Any = None, spare: Any = None) -> str:
    """Run all checks against the running server; returns the stage reached: exited|timeout|foreign|up."""
    port = listener.port if isinstance(listener, Reserved) else listener
    stage, waited_ms, foreign = _wait_for_port(proc, listener, timeout_s)
    if stage == "exited":
        rec.check("process alive", False, f"pid={proc.pid} exited before opening port {port}")
        rec.check("port accepts", False, "the process exited first")
        return stage
    rec.check("process alive", True, f"pid={proc.pid}")
    if stage == "timeout":
        rec.check("port accepts", False, f"port {port} not open after {timeout_s:g}s")
        return stage
    if stage == "foreign":   # no request was made: whatever answers there is not the app
        rec.check("port accepts", False, foreign)
        return stage
    rec.check("port accepts", True, f"{HOST}:{port} after {waited_ms} ms (listening socket: the app's own)")
    base = f"http://{HOST}:{port}"
    if _health(base, rec):
        for path in _OPTIONAL_PATHS:
            _optional(base, path, rec)
        _round_trips(base, steps, rec)
        if acceptance is not None:
            began = time.monotonic()
            if spare is not None:   # the restart's server, importing while the checks run
                spare()
            # the leg reads the database file and may restart the app on it (checks_stored.py)
            rec.acceptance = acceptance(base, list(rec.checks), db=db, restart=restart)
            rec.acceptance_ms = int((time.monotonic() - began) * 1000)
    sqlite_opens(db, rec)
    return stage


def _display(command: list[str]) -> str:
    shown = ["python" if command[0] == sys.executable else command[0], *command[1:]]
    return " ".join(shown)


def _wait_for_port(proc: SandboxProcess, listener: Reserved | int, timeout_s: float) -> tuple[str, int, str]:
    """(exited|timeout|foreign|up, ms waited, what is foreign): "up" only when the socket that
    accepts is the app's (the harness's own, or for a Node app one its process tree holds)."""
    own = listener.inode if isinstance(listener, Reserved) else None
    port = listener.port if isinstance(listener, Reserved) else listener
    started = time.monotonic()
    while True:
        if not proc.alive():
            return "exited", 0, ""
        if _port_accepts(port):
            if problem := foreign_listener(port, proc.pid, own):
                return "foreign", 0, problem
            return "up", int((time.monotonic() - started) * 1000), ""
        if time.monotonic() - started >= timeout_s:
            return "timeout", 0, ""
        time.sleep(POLL_S)


def _port_accepts(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.2):
            return True
    except OSError:
        return False


def _health(base: str, rec: _Record) -> bool:
    path = "/health"
    resp = _probe(base, "GET", path, rec)
    if resp.status == 404:
        path = "/"
        resp = _probe(base, "GET", path, rec)
    ok = 200 <= resp.status < 300 and _healthy_body(resp)
    return rec.check(f"GET {path}", ok, f"{resp.status or 'no response'} {resp.excerpt()}".rstrip())


_HEALTHY = {"ok", "healthy", "up", "pass", "alive", "green"}


def _healthy_body(resp: HttpResponse) -> bool:
    """A JSON health answer that states a status must state a healthy one ({"status": "down"} is not)."""
    data = resp.json()
    if isinstance(data, dict) and "status" in data:
        return str(data["status"]).lower() in _HEALTHY
    return True


def _optional(base: str, path: str, rec: _Record) -> None:
    """Record an optional endpoint: absent (404) is fine, a crash or no answer is not."""
    resp = _probe(base, "GET", path, rec)
    if resp.status == 404:
        rec.check(f"GET {path}", True, "404 — not available (optional)")
    else:
        ok = 0 < resp.status < 500
        rec.check(f"GET {path}", ok, f"{resp.status or 'no response'} {resp.excerpt()}".rstrip())


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _failed(rec: _Record, stage: str, stdout: str, stderr: str, exit_code: int | None,
            workspace: Path, task_hint: str, started: float, port_number: bool = True) -> RuntimeResult:
    """`port_number`: the app was given a port to bind (Node), not the harness's socket: its
    "address already in use" is another process's doing."""
    from harness.verification.classifier import classify, locate  # lazy: sibling module

    out_tail, err_tail = stdout[-LOG_TAIL_CHARS:], stderr[-LOG_TAIL_CHARS:]
    rec.check("server log", False, f"exit code {exit_code}\n{err_tail or out_tail or '(no output)'}")
    where = locate(stdout, stderr, workspace_files(workspace))
    if stage == "foreign" or (port_number and _PORT_CONFLICT.search(stderr)):
        return rec.result(started, FailureType.ENVIRONMENT_ERROR, _NOT_JUDGED)
    if stage == "timeout":
        failure = FailureType.TIMEOUT
    elif stage == "not started":  # Popen itself failed: the interpreter/npm cannot be executed
        failure = FailureType.ENVIRONMENT_ERROR
    else:
        # A server we stopped ourselves exits cleanly; its failure is the failed check, so report 1.
        code = exit_code if stage == "exited" and exit_code is not None else 1
        failure = classify(out_tail, err_tail, code)
        if failure in (None, FailureType.UNKNOWN) and _server_error(rec):
            failure = FailureType.CODE_ERROR  # the app answered 5xx: its code crashed on a request
    return rec.result(started, failure or FailureType.UNKNOWN, _hint(where, task_hint, stage))


def _server_error(rec: _Record) -> bool:
    return any(not c.ok and re.search(r"→ 5\d\d\b", c.detail) for c in rec.checks)


def _hint(where: dict, task_hint: str, stage: str) -> str:
    """Name the workspace file (and line) of the innermost traceback frame inside the workspace."""
    task = f" — task {task_hint}" if task_hint else ""
    if where:
        summary = f": {where['summary']}" if where.get("summary") else ""
        return f"look at {where['file']} (line {where['line']}){summary}{task}"
    if stage == "timeout":
        return f"the app did not open its port in time: look for slow work at import or startup{task}"
    return f"see the 'server log' check{task}"

