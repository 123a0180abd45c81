"""A generated workspace served by real uvicorn on a free port, for black-box checks from outside."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(workspace: Path, db: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "APP_DB_PATH": str(db), "APP_PASSWORD_HASH_ITERATIONS": "1000",
           "PYTHONDONTWRITEBYTECODE": "1"}
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "src.main:app", "--port", str(port),
                               "--log-level", "warning"], cwd=workspace, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/health", timeout=2) as answer:
                    if answer.status == 200:
                        return server, base
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"uvicorn did not start: {server.stderr.read().decode()[-2000:]}")
            time.sleep(0.05)
    except BaseException:
        _stop(server)
        raise


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait(10)


class Served:
    """The running server of a workspace: `base`, and `restart()` (stop it, start it again on the
    same database; the new base URL), as the runtime check hands them to the acceptance leg."""

    def __init__(self, workspace: Path, db: Path) -> None:
        self.workspace, self.db = workspace, db
        self.server, self.base = _start(workspace, db)

    def restart(self) -> str:
        _stop(self.server)
        self.server, self.base = _start(self.workspace, self.db)
        return self.base


@contextmanager
def served_app(workspace: Path, db: Path):
    """A `Served` app until the block ends; whichever server runs then is stopped."""
    app = Served(workspace, db)
    try:
        yield app
    finally:
        _stop(app.server)


@contextmanager
def served(workspace: Path, db: Path):
    """The base URL of the workspace's app (src.main:app) until the block ends; the server is stopped."""
    with served_app(workspace, db) as app:
        yield app.base


def spec_from_toml(tmp_path: Path, text: str, name: str = "spec.toml"):
    """The AppSpec of a spec-language text (written to tmp_path/name, loaded as `--spec` does)."""
    from harness.offline.spec_file import load_spec_file

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_spec_file(path)


def acceptance_of(tmp_path: Path, spec, files: dict[str, str], name: str = "app") -> dict:
    """The harness's black-box checks (by name) of the app `files` serve for `spec`."""
    from harness.acceptance import run_acceptance
    from helpers import write_files

    with served(write_files(files, tmp_path / name), tmp_path / f"{name}.db") as base:
        return {c.name: c for c in run_acceptance(base, spec, [], [])}


def full_acceptance(workspace: Path, db: Path, spec) -> dict:
    """Every black-box check of the served workspace as the runtime check runs them: with its
    database file and one restart (by name)."""
    from harness.acceptance import run_acceptance

    with served_app(workspace, db) as app:
        return {c.name: c for c in run_acceptance(app.base, spec, [], [], db=db, restart=app.restart)}


def json_call(base: str, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
    """One JSON request to a served app: (status, the parsed body or None); an HTTP error is its status."""
    import json
    import urllib.error

    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, method=method, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, None
