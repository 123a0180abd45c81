"""#46: `pytest --harness-run ID` re-verifies — it executes the suite and the runtime check every
time, whatever the workspace's file hashes say.

Until #46 a second `--harness-run` on unchanged workspace files answered from the evidence the
first one stored (harness/verification/reuse.py), and the runtime check ran only when a file had
changed: anything a test depends on that is not a hashed workspace file — the clock, TZ, an
installed module, a `.db` file, code under a folder the snapshot skips — could turn a failing app
into HARNESS RUN PASS. `changed_outside` plants one passing test per case in a private copy of
the Todo build, runs `--harness-run` (PASS), changes each case's one outside thing, and runs it
again; each test below then asserts that its planted test failed *by execution* in that second
run. The cases share one copy and one pair of runs because no change can mask another: each
planted test reads only its own outside thing (about 30 s instead of 30 s a case).

`--harness-run` goes through `pytest.main` in this interpreter (run_copies.harness_run_in_process);
its verification commands run in real sandboxed subprocesses.
"""

from __future__ import annotations

import io
import json
import shutil
import sysconfig
import uuid
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from harness.state.store import RunStore
from run_copies import harness_run_in_process

pytestmark = pytest.mark.slow

# POSIX TZ strings (no tzdata needed inside the sandbox): "UTC0" is UTC, "ABC-5" is UTC+5.
UTC, PLUS_FIVE = "UTC0", "ABC-5"
FOLDERS = ("evidence", "venv", "node_modules")   # folders the evidence snapshot does not hash


def _plant_test(workspace: Path, body: str) -> None:
    """Append a REQ-001 test to a test module the build owns (a new file would be no task's)."""
    module = sorted((workspace / "tests").glob("test_*.py"))[0]
    with module.open("a", encoding="utf-8") as out:
        out.write("\n\n@pytest.mark.req('REQ-001')\n" + body)


@dataclass
class TwoRuns:
    first: object
    second: object
    runtime_before: object
    runtime_after: object
    evidence: dict        # the workspace evidence the second run wrote


@pytest.fixture(scope="module")
def changed_outside(todo_run, tmp_path_factory):
    """Both `--harness-run`s of one private copy, each case's outside thing changed in between."""
    store, ctx = todo_run
    base = tmp_path_factory.mktemp("reverify")
    shutil.copytree(store.run_dir(ctx.run_id), base / "runs" / ctx.run_id)
    store, run_id = RunStore(base / "runs"), ctx.run_id
    workspace = store.workspace(run_id)
    deadline = (datetime.now(timezone.utc) + timedelta(hours=2)).replace(tzinfo=None, microsecond=0)
    _plant_test(workspace, "def test_offer_still_open():\n    from datetime import datetime\n\n"
                f"    assert datetime.now() < datetime.fromisoformat({deadline.isoformat()!r})\n")
    _plant_test(workspace, "def test_server_clock_is_utc():\n    import time\n\n"
                "    assert time.localtime().tm_gmtoff == 0\n")
    dep = f"abh_dep_{uuid.uuid4().hex[:12]}"
    installed = Path(sysconfig.get_paths()["purelib"]) / f"{dep}.py"
    installed.write_text("def rounding():\n    return 'half-even'\n", encoding="utf-8")
    _plant_test(workspace, f"def test_rounding_mode():\n    import {dep}\n\n"
                f"    assert {dep}.rounding() == 'half-even'\n")
    (workspace / "data").mkdir(exist_ok=True)
    (workspace / "data" / "limits.db").write_bytes(b"max_tasks=10")
    _plant_test(workspace, "def test_limit_is_ten():\n    from pathlib import Path\n\n"
                "    data = Path(__file__).resolve().parent.parent / 'data' / 'limits.db'\n"
                "    assert data.read_bytes() == b'max_tasks=10'\n")
    for folder in FOLDERS:
        (workspace / folder).mkdir(exist_ok=True)
        (workspace / folder / "pricing.py").write_text("def vat(x):\n    return x * 1.2\n", encoding="utf-8")
        _plant_test(workspace, f"def test_vat_from_{folder}():\n    import importlib.util\n    from pathlib import Path\n\n"
                    f"    path = Path(__file__).resolve().parent.parent / {folder!r} / 'pricing.py'\n"
                    "    spec = importlib.util.spec_from_file_location('pricing', path)\n"
                    "    module = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(module)\n"
                    "    assert module.vat(10) == 12\n")
    with pytest.MonkeyPatch.context() as env, _capture() as capsys:
        env.setenv("TZ", UTC)
        try:
            first = harness_run_in_process(run_id, store.base, base, capsys)
            runtime_before = store.load(run_id).runtime
            env.setenv("TZ", PLUS_FIVE)      # the local clock is five hours on: past the deadline
            installed.write_text("def rounding():\n    return 'half-up'\n", encoding="utf-8")
            (workspace / "data" / "limits.db").write_bytes(b"max_tasks=3")
            for folder in FOLDERS:
                (workspace / folder / "pricing.py").write_text("def vat(x):\n    return x\n", encoding="utf-8")
            second = harness_run_in_process(run_id, store.base, base, capsys)
        finally:
            installed.unlink(missing_ok=True)
    return TwoRuns(first, second, runtime_before, store.load(run_id).runtime,
                   json.loads(store.workspace_evidence(run_id).read_text()))


@contextmanager
def _capture():
    """A capsys stand-in for a module fixture: harness_run_in_process only needs readouterr()."""
    out = io.StringIO()

    class Capture:
        def readouterr(self):
            text = out.getvalue()
            out.seek(0)
            out.truncate()
            return text, ""

    with redirect_stdout(out):
        yield Capture()


def _failed_by_execution(runs: TwoRuns, test_name: str) -> None:
    assert runs.first.returncode == 0 and "HARNESS RUN PASS" in runs.first.stdout, runs.first.stdout[-3000:]
    assert runs.second.returncode != 0 and "HARNESS RUN FAIL" in runs.second.stdout, runs.second.stdout[-3000:]
    entries = {n.rsplit("::", 1)[-1]: e for n, e in runs.evidence["tests"].items()}
    assert entries[test_name]["outcome"] == "failed" and not entries[test_name].get("carried_from")


def test_harness_run_fails_once_a_tests_deadline_has_passed(changed_outside):
    """The deadline is in local time and the local clock the test reads moves past it (TZ moves
    it five hours on: nothing here may set the machine's clock or sleep)."""
    _failed_by_execution(changed_outside, "test_offer_still_open")


def test_harness_run_reruns_after_tz_change(changed_outside):
    _failed_by_execution(changed_outside, "test_server_clock_is_utc")


def test_harness_run_reruns_after_a_dependency_changed_its_behaviour(changed_outside):
    """A module installed beside the harness (on sys.path, outside the workspace) is upgraded."""
    _failed_by_execution(changed_outside, "test_rounding_mode")


def test_harness_run_reruns_after_a_data_file_the_tests_read_was_edited(changed_outside):
    """A `.db` file is not in the evidence snapshot (databases change on every run)."""
    _failed_by_execution(changed_outside, "test_limit_is_ten")


@pytest.mark.parametrize("folder", FOLDERS)
def test_harness_run_reruns_after_code_in_a_skipped_folder_changed(changed_outside, folder):
    _failed_by_execution(changed_outside, f"test_vat_from_{folder}")


def test_harness_run_executes_every_test_and_the_runtime_check_each_time(changed_outside):
    """No entry of the second run's evidence is carried, and the runtime check started another server."""
    assert not any(e.get("carried_from") for e in changed_outside.evidence["tests"].values())
    assert "carried" not in changed_outside.evidence
    launched = lambda r: [line for line in r.evidence if line.startswith("launched ")]  # noqa: E731
    assert launched(changed_outside.runtime_after)
    assert launched(changed_outside.runtime_after) != launched(changed_outside.runtime_before)
