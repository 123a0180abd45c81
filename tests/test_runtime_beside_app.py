"""The runtime check started beside the plan's last task (harness/speed/runtime_ahead.py) is adopted
only when it ran the final bytes (harness/speed/validity.py); the audit's candidate precompute
starts beside the task that completes the app (harness/speed/door.py: completes_the_app)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from harness.models.enums import TaskStatus
from harness.models.results import RuntimeResult
from harness.models.tasks import Plan, Task
from harness.speed import door, runtime_ahead
from harness.speed.validity import workspace_digest
from harness.state.store import RunStore


@pytest.mark.parametrize("rel, expected", [
    ("tests/test_acceptance.py", True), ("tests/api/orders_test.py", True), ("tests/conftest.py", False),
    ("tests/helpers.py", False), ("test_top.py", False), ("src/test_x.py", False), ("tests/test_x.txt", False),
])
def test_only_test_modules_under_tests_count_as_files_the_app_never_runs(rel, expected):
    assert door.is_test_module(rel) is expected


def _ctx(tmp_path, files_of_last: list[str], status_of_last=TaskStatus.PENDING):
    tasks = [Task(id="TASK-001", description="app", files_touched=["src/main.py", "tests/test_main.py"]),
             Task(id="TASK-002", description="acceptance", files_touched=files_of_last, depends_on=["TASK-001"])]
    state = SimpleNamespace(plan=Plan(tasks=tasks), task_results={"TASK-001": TaskStatus.RUNNING,
                                                                  "TASK-002": status_of_last})
    (tmp_path / "src").mkdir(exist_ok=True)
    return SimpleNamespace(state=state, workspace=tmp_path), tasks


def test_the_app_is_complete_when_the_only_task_left_adds_new_test_modules(tmp_path):
    ctx, tasks = _ctx(tmp_path, ["tests/test_acceptance.py"])
    assert door.completes_the_app(ctx, tasks[0])
    assert not runtime_ahead.is_last_task(ctx, tasks[0])


@pytest.mark.parametrize("files, why", [
    (["tests/test_acceptance.py", "src/extra.py"], "it writes app code"),
    (["tests/conftest.py"], "a conftest is not a test module"),
    ([], "a task that names no file can write anything"),
])
def test_the_app_is_not_complete_while_a_task_left_may_write_other_files(tmp_path, files, why):
    ctx, tasks = _ctx(tmp_path, files)
    assert not door.completes_the_app(ctx, tasks[0]), why


def test_a_test_module_that_already_exists_may_be_rewritten_so_the_app_is_not_complete(tmp_path):
    ctx, tasks = _ctx(tmp_path, ["tests/test_acceptance.py"])
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_acceptance.py").write_text("def test_x():\n    pass\n")
    assert not door.completes_the_app(ctx, tasks[0])


def _ahead(workspace, status: str) -> runtime_ahead.RuntimeAhead:
    """A RuntimeAhead whose check 'ran' on the workspace as it is now (started and ended on these
    bytes) and ended with `status`."""
    ahead = runtime_ahead.RuntimeAhead.__new__(runtime_ahead.RuntimeAhead)
    ahead.task_id, ahead.workspace = "TASK-001", workspace
    ahead.before = ahead.after = workspace_digest(workspace)
    ahead.result, ahead.error = RuntimeResult(status=status, evidence=["probes: 1"]), None
    ahead._thread = threading.Thread(target=lambda: None)
    ahead._thread.start()
    return ahead


def _app(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("app = 1\n")


@pytest.mark.parametrize("status", ["PASS", "FAIL"])
def test_a_check_that_ran_the_final_bytes_is_adopted_and_says_so(tmp_path, status):
    _app(tmp_path)
    adopted = _ahead(tmp_path, status).adopt()
    assert adopted is not None and adopted.status == status
    assert adopted.evidence[0].startswith("run beside TASK-001's verification on the final bytes")


@pytest.mark.parametrize("change", ["app file edited", "app file added", "test module added",
                                    "code under venv/", "a .db file", "code under evidence/"])
def test_a_runtime_check_ahead_is_not_adopted_once_any_byte_changed(tmp_path, change):
    """#46: adopted only when it provably ran the final bytes — a test module added after it started
    (adopted until #46: 'the app does not run it') and files the evidence snapshot skips count too."""
    _app(tmp_path)
    ahead = _ahead(tmp_path, "PASS")
    target = {"app file edited": "src/main.py", "app file added": "src/extra.py",
              "test module added": "tests/test_acceptance.py", "code under venv/": "venv/site.py",
              "a .db file": "data/app.db", "code under evidence/": "evidence/helper.py"}[change]
    (tmp_path / target).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / target).write_text("changed = True\n")
    assert ahead.adopt() is None


def test_runtime_ahead_swapped_then_restored_after_the_check_is_not_adopted(tmp_path):
    """The bytes at the check's end differ from its start (a file swapped during the check), even
    though the original is back by VERIFY: not adopted. (A swap *and* restore inside the check is
    closed by the read-only workspace while code under test runs.)"""
    _app(tmp_path)
    ahead = _ahead(tmp_path, "PASS")
    (tmp_path / "src" / "main.py").write_text("app = 'swapped'\n")
    ahead.after = workspace_digest(tmp_path)
    (tmp_path / "src" / "main.py").write_text("app = 1\n")
    assert ahead.before == workspace_digest(tmp_path) and ahead.adopt() is None


def test_a_run_ending_before_verify_does_not_wait_for_the_runtime_check_started_ahead_bug(tmp_path):
    """Bug: Ctrl+C as VERIFY began could take 3.7 s under load (bound 2 s): the door's cancel
    waited for the runtime check started beside the last task to run to its own end — up to its
    15 s start-up limit for an app that never opens its port. Now cancel stops that check's server
    first: the check ends as "exited", never "not open after 15s", and is never adopted."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "__init__.py").write_text("")
    (tmp_path / "src" / "main.py").write_text("import threading\nthreading.Event().wait()  # never serves\napp = None\n")
    ahead = runtime_ahead.RuntimeAhead(tmp_path, ([], "", "", ""), "TASK-002")
    assert ahead.launched.wait(60), "the app's server was never launched"
    speed = door.Speed(on=True)
    speed.runtime_ahead = ahead
    speed.cancel(SimpleNamespace(run_id="run_ended_early", workspace=tmp_path, store=RunStore(tmp_path / "runs")))
    assert speed.runtime_ahead is None and not ahead._thread.is_alive()
    alive = [c for c in ahead.result.checks if c.name in ("process alive", "port accepts")]
    assert alive and not any("not open after" in c.detail for c in alive), alive
    assert any(c.name == "process alive" and not c.ok and "exited" in c.detail for c in alive), alive
    assert ahead.adopt() is None
