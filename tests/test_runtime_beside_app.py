"""The runtime check starts beside the verification of the task that completes the app
(harness/speed/runtime_ahead.py): once every other task is completed or only adds test
modules under tests/, and its result is adopted only while every other file is unchanged."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from harness.models.enums import TaskStatus
from harness.models.results import RuntimeResult
from harness.models.tasks import Plan, Task
from harness.speed import runtime_ahead
from pytest_harness.snapshot import snapshot_files


@pytest.mark.parametrize("rel, expected", [
    ("tests/test_acceptance.py", True), ("tests/api/orders_test.py", True), ("tests/conftest.py", False),
    ("tests/helpers.py", False), ("test_top.py", False), ("src/test_x.py", False), ("tests/test_x.txt", False),
])
def test_only_test_modules_under_tests_count_as_files_the_app_never_runs(rel, expected):
    assert runtime_ahead.is_test_module(rel) is expected


def _ctx(tmp_path, files_of_last: list[str], status_of_last=TaskStatus.PENDING):
    tasks = [Task(id="TASK-001", description="app", files_touched=["src/main.py", "tests/test_main.py"]),
             Task(id="TASK-002", description="acceptance", files_touched=files_of_last, depends_on=["TASK-001"])]
    state = SimpleNamespace(plan=Plan(tasks=tasks), task_results={"TASK-001": TaskStatus.RUNNING,
                                                                  "TASK-002": status_of_last})
    (tmp_path / "src").mkdir(exist_ok=True)
    return SimpleNamespace(state=state, workspace=tmp_path), tasks


def test_the_app_is_complete_when_the_only_task_left_adds_new_test_modules(tmp_path):
    ctx, tasks = _ctx(tmp_path, ["tests/test_acceptance.py"])
    assert runtime_ahead.completes_the_app(ctx, tasks[0])
    assert not runtime_ahead.is_last_task(ctx, tasks[0])


@pytest.mark.parametrize("files, why", [
    (["tests/test_acceptance.py", "src/extra.py"], "it writes app code"),
    (["tests/conftest.py"], "a conftest is not a test module"),
    ([], "a task that names no file can write anything"),
])
def test_the_app_is_not_complete_while_a_task_left_may_write_other_files(tmp_path, files, why):
    ctx, tasks = _ctx(tmp_path, files)
    assert not runtime_ahead.completes_the_app(ctx, tasks[0]), why


def test_a_test_module_that_already_exists_may_be_rewritten_so_the_app_is_not_complete(tmp_path):
    ctx, tasks = _ctx(tmp_path, ["tests/test_acceptance.py"])
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_acceptance.py").write_text("def test_x():\n    pass\n")
    assert not runtime_ahead.completes_the_app(ctx, tasks[0])


def _ahead(workspace, status: str) -> runtime_ahead.RuntimeAhead:
    """A RuntimeAhead whose check 'ran' on the workspace as it is now and ended with `status`."""
    ahead = runtime_ahead.RuntimeAhead.__new__(runtime_ahead.RuntimeAhead)
    ahead.task_id, ahead.workspace = "TASK-001", workspace
    ahead.snapshot = snapshot_files(workspace)
    ahead.result, ahead.error = RuntimeResult(status=status, evidence=["probes: 1"]), None
    ahead._thread = threading.Thread(target=lambda: None)
    ahead._thread.start()
    return ahead


def test_a_passing_check_is_adopted_with_the_test_modules_added_since_named(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("app = 1\n")
    ahead = _ahead(tmp_path, "PASS")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_acceptance.py").write_text("def test_x():\n    pass\n")
    adopted = ahead.adopt()
    assert adopted is not None and adopted.status == "PASS"
    assert "run beside TASK-001's verification on the same files" in adopted.evidence[0]
    assert adopted.evidence[0].endswith("test modules added since, which the app does not run: tests/test_acceptance.py")


@pytest.mark.parametrize("change", ["app file edited", "app file added", "failing check"])
def test_the_check_is_run_again_when_anything_else_changed_or_it_failed_beside_new_tests(tmp_path, change):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("app = 1\n")
    ahead = _ahead(tmp_path, "FAIL" if change == "failing check" else "PASS")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_acceptance.py").write_text("def test_x():\n    pass\n")
    if change == "app file edited":
        (tmp_path / "src" / "main.py").write_text("app = 2\n")
    elif change == "app file added":
        (tmp_path / "src" / "extra.py").write_text("x = 1\n")
    assert ahead.adopt() is None


def test_a_failing_check_on_unchanged_files_is_still_adopted(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("app = 1\n")
    adopted = _ahead(tmp_path, "FAIL").adopt()
    assert adopted is not None and adopted.status == "FAIL"
