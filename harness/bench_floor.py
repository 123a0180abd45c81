"""The physical floor of a build, measured the way `builder bench` compares against it.

Floor = one cold `python -m pytest -q` of the finished workspace (contained, as verification runs
it, without the plugin) + one uvicorn start to the first `GET /health` 200. Nothing a build does
can be cheaper than running its suite once and starting its app once.
"""

from __future__ import annotations

import shutil
import sys
import time
import urllib.request
from pathlib import Path

from harness.sandbox.local import LocalSandbox
from harness.utils import own_tmp
from harness.verification.runtime import HOST, free_port

STARTUP_TIMEOUT_S = 30.0


def pytest_floor_s(workspace: Path) -> float:
    """Seconds for one cold contained pytest run of the workspace's suite."""
    from harness.verification.plugins import disable_args

    box = LocalSandbox(workspace)
    # The same plugins as a verification session (installed plugins the workspace did not ask for off)
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            *disable_args(box.read_if_file("requirements.txt") or "")]
    started = time.monotonic()
    box.execute(argv, timeout_s=300, env={"PYTHONDONTWRITEBYTECODE": "1"})
    return time.monotonic() - started


def uvicorn_floor_s(workspace: Path, app: str = "src.main:app") -> float:
    """Seconds from starting uvicorn on the workspace's app to its first /health 200."""
    tmp = own_tmp.make("floor")
    port = free_port()
    started = time.monotonic()
    try:
        proc = LocalSandbox(workspace).spawn(
            [sys.executable, "-m", "uvicorn", app, "--app-dir", str(workspace), "--host", HOST, "--port", str(port)],
            cwd=tmp, env={"APP_DB_PATH": str(tmp / "app.db"), "PYTHONDONTWRITEBYTECODE": "1"},
            network=True, writable=[tmp])
        with proc:
            while time.monotonic() - started < STARTUP_TIMEOUT_S and proc.alive():
                if _health_ok(port):
                    return time.monotonic() - started
                time.sleep(0.02)
        return float("nan")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _health_ok(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}/health", timeout=1) as resp:
            return resp.status == 200
    except OSError:
        return False


def floor_s(workspace: Path) -> tuple[float, float]:
    """(pytest floor, uvicorn floor) in seconds."""
    return pytest_floor_s(workspace), uvicorn_floor_s(workspace)
