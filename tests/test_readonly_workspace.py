"""#46.2: the workspace is read-only while code under test runs — a swap-and-restore cannot PASS.

A test session and the runtime check's app each try the attack the issue found: put a good copy of
a broken source file in place, use it, put the broken original back. Under bubblewrap the write
fails (the workspace is bound read-only); without it (HARNESS_SANDBOX=none) the harness's
before/after fingerprint sees the change and voids the result. Either way: FAIL, never PASS — and
the workspace ends as it began.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from harness.sandbox.workspace_guard import WorkspaceGuard, differences, fingerprint
from harness.verification.runtime import verify_runtime
from harness.speed.runners import WarmRunner
from harness.verification.verifier import run_command
from helpers import warm_workers_stopped_after

MODES = [pytest.param("bwrap", marks=pytest.mark.skipif(shutil.which("bwrap") is None, reason="no bubblewrap")),
         "none"]

SWAPPING_TESTS = {
    "pytest.ini": "[pytest]\npythonpath = .\n",
    "src/__init__.py": "",
    "src/value.py": "VALUE = 1  # broken: the tests want 2\n",
    "tests/test_a_swap.py": '''import importlib
from pathlib import Path


def test_swap_in_a_good_copy():
    try:
        Path("src/value.py").write_text("VALUE = 2\\n")
    except OSError:
        pass  # hostile code does not give up loudly
''',
    "tests/test_b_use.py": '''import importlib
from pathlib import Path


def test_value_is_two_then_restore():
    import src.value
    value = importlib.reload(src.value).VALUE
    try:
        Path("src/value.py").write_text("VALUE = 1  # broken: the tests want 2\\n")
    except OSError:
        pass
    assert value == 2
''',
}

SWAPPING_APP = {
    "src/__init__.py": "",
    "src/health.py": "def status():\n    raise RuntimeError('broken')\n",
    "src/main.py": '''from pathlib import Path

from fastapi import FastAPI

HERE = Path(__file__).parent
ORIGINAL = (HERE / "health.py").read_text()
try:  # swap in a good copy, import it, put the broken original back
    (HERE / "health.py").write_text("def status():\\n    return 'ok'\\n")
    from src import health
    (HERE / "health.py").write_text(ORIGINAL)
except OSError:
    from src import health

app = FastAPI()


@app.get("/health")
def get_health():
    return {"status": health.status()}
''',
}


def _workspace(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture(params=MODES)
def sandbox_mode(request, monkeypatch):
    monkeypatch.setenv("HARNESS_SANDBOX", "auto" if request.param == "bwrap" else "none")
    return request.param


@pytest.mark.slow
@pytest.mark.parametrize("warm_mode", ["0", "1"])
def test_a_test_session_that_swaps_a_source_file_and_restores_it_cannot_pass(tmp_path, sandbox_mode, warm_mode,
                                                                             monkeypatch):
    monkeypatch.setenv("HARNESS_WARM", warm_mode)
    ws = _workspace(tmp_path / "ws", SWAPPING_TESTS)
    before = (ws / "src" / "value.py").read_text()
    with warm_workers_stopped_after():
        res = run_command("python -m pytest -q tests", ws, task_id="T", timeout_s=120, runner=WarmRunner())
    assert res.status == "FAIL"
    if sandbox_mode == "none":
        assert "result void: the workspace changed while its code ran (src/value.py)" in res.stderr
    else:
        assert "assert 1 == 2" in res.stdout   # the swap never happened
    assert (ws / "src" / "value.py").read_text() == before


@pytest.mark.slow
def test_the_runtime_checks_app_that_swaps_a_source_file_and_restores_it_cannot_pass(tmp_path, sandbox_mode):
    """Regression (#46): the runtime check adopted a PASS of bytes the final app does not have."""
    ws = _workspace(tmp_path / "ws", SWAPPING_APP)
    before = fingerprint(ws)
    result = verify_runtime(ws, startup_timeout_s=30)
    assert result.status == "FAIL"
    failed = {c.name: c.detail for c in result.checks if not c.ok}
    if sandbox_mode == "none":
        assert "src/health.py" in failed["workspace unchanged"]
    else:
        assert "workspace unchanged" not in failed and any("500" in d for d in failed.values()), failed
        assert differences(before, fingerprint(ws)) == []


def test_the_guard_sees_a_file_put_back_with_its_bytes_and_mtime_restored(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    st = os.stat(tmp_path / "a.py")
    guard = WorkspaceGuard(tmp_path)
    assert guard.violation() == ""
    (tmp_path / "a.py").write_text("x = 2\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    os.utime(tmp_path / "a.py", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert "a.py" in guard.violation()


def test_the_guard_counts_caches_databases_and_evidence_folders_too(tmp_path):
    guard = WorkspaceGuard(tmp_path)
    for rel in ("evidence/x.py", "venv/y.py", "node_modules/z.js", "src/__pycache__/m.cpython-311.pyc", "app.db"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("planted")
    shown = guard.violation()
    assert all(name in shown for name in ("app.db", "evidence", "node_modules"))
