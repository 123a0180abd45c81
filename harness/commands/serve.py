"""`builder serve`: serve a built app to its user exactly as the runtime check served it for judging.

Both go through harness/verification/app_server.py (one launcher: the same sandbox, uid/gid,
environment, working directory and database layout), so an app cannot behave one way for the
judge and another for its user (#46/#47, hostile attack A5). Only the port and the host directory
of the data differ: the check's is a fresh temp directory, the user's `<run>/app-data` (kept
between serves). Ctrl+C stops the app and everything it started.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.commands.base import Command, runs_dir_option, store_for
from harness.errors import EXIT_OK, InputError

DATA_DIR = "app-data"


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", metavar="RUN_ID_OR_WORKSPACE",
                   help="a run id (its workspace is served) or a workspace directory")
    runs_dir_option(p)
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    p.add_argument("--host", action="store_true",
                   help="listen on every interface (0.0.0.0) instead of 127.0.0.1 only")
    p.add_argument("--data", default=None,
                   help=f"the app's data directory (its app.db; default <run>/{DATA_DIR}, kept between serves)")


def _workspace(args) -> tuple[Path, str]:
    """(the workspace to serve, the plan's declared entry or "") for a run id or a directory."""
    store = store_for(args)
    target = Path(args.target)
    as_path = "/" in args.target or args.target in (".", "..")
    if as_path or (target.is_dir() and not store.run_dir(args.target).is_dir()):
        if not target.is_dir():
            raise InputError(f"no workspace {args.target!r}: not a directory")
        workspace = target / "workspace" if (target / "workspace").is_dir() else target
        return workspace.resolve(), _declared_entry(store, workspace.resolve())
    state = store.load(args.target)   # UnknownRunError (exit 4) names the runs directory
    workspace = store.run_dir(state.run_id) / "workspace"
    if not workspace.is_dir():
        raise InputError(f"run {state.run_id} has no workspace ({workspace} is missing)")
    return workspace.resolve(), state.plan.entry if state.plan else ""


def _declared_entry(store, workspace: Path) -> str:
    """The entry the run's plan declares when `workspace` is runs/<id>/workspace, else ""."""
    from harness.state.store import RunStore

    run_dir = workspace.parent
    try:
        state = RunStore(run_dir.parent).load(run_dir.name)
    except Exception:  # noqa: BLE001 - a bare workspace, or a run that cannot be read: detect the entry
        return ""
    return state.plan.entry if state.plan else ""


def _run(args) -> int:
    from harness.interrupts import INTERRUPTS
    from harness.sandbox.runner import SpawnError
    from harness.verification import app_server
    from harness.verification.app_socket import Reserved
    from harness.verification.runtime import declared_entry, detect_entry

    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port} is not a port number (1-65535)")
    workspace, declared = _workspace(args)
    entry = (declared_entry(workspace, declared) if declared else None) or detect_entry(workspace)
    if entry is None:
        raise InputError(f"nothing to serve in {workspace}: no src/main.py or app.py defining `app`, "
                         "and no package.json")
    host = "0.0.0.0" if args.host else app_server.HOST
    data = Path(args.data).resolve() if args.data else workspace.parent / DATA_DIR
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make the data directory {data}: {exc.strerror or exc}") from None
    # As for the runtime check: a Python app serves on a socket the harness bound (app_socket.py).
    listener: Reserved | int = args.port
    if entry[0] == "python":
        try:
            listener = Reserved(host, args.port, reuse_addr=True)
        except OSError:
            raise InputError(f"port {args.port} is already in use; choose another with --port") from None
    try:
        proc = app_server.launch(workspace, entry, listener, data, sys.stdout.buffer, sys.stderr.buffer)
    except (SpawnError, OSError) as exc:
        raise InputError(f"cannot start the app: {getattr(exc, 'message', exc)}") from None
    finally:
        if isinstance(listener, Reserved):
            listener.release()
    print(f"serving {workspace} at http://{app_server.HOST if host == app_server.HOST else host}:{args.port}/ "
          f"(database {data / 'app.db'}; isolation: {proc.isolation}); Ctrl+C stops it", flush=True)
    try:
        proc.wait()
    except INTERRUPTS:
        proc.stop()
        print("stopped", flush=True)
        return EXIT_OK
    code = proc.stop()
    print(f"the app exited (exit code {code})", file=sys.stderr, flush=True)
    return EXIT_OK if code == 0 else 1


SERVE = Command("serve", "serve a built app as the runtime check served it (same sandbox and environment)",
                _arguments, _run)
