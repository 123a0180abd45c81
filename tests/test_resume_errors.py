"""`builder resume` on damaged, locked or finished runs: one clear line, the right exit code, and
nothing under the run directory changed (every file hashed before and after), nothing restarted.

The damaged runs are copies of one real run whose `builder new` was SIGKILLed after TASK-002.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from harness.cli import main
from harness.errors import RunLockedError
from harness.models.enums import TaskStatus
from harness.models.run import RunState
from harness.state.recovery import rebuild_statuses
from harness.state.store import RunStore
from resume_helpers import builder, tree_digest

CP = "checkpoints"


@pytest.fixture(scope="module")
def crashed_original(crashed_todo_run) -> Path:
    """The shared killed `builder new` (conftest.py); tests only touch copies of it."""
    assert crashed_todo_run.returncode == -signal.SIGKILL, crashed_todo_run.stdout + crashed_todo_run.stderr
    return crashed_todo_run.run


@pytest.fixture
def crashed(tmp_path, crashed_original) -> Path:
    """A private copy of the crashed run (stale run.lock of the dead builder included)."""
    target = tmp_path / "runs" / "crashy"
    shutil.copytree(crashed_original, target)
    return target


def _edit_state(run: Path, change) -> None:
    path = run / "state.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


def _write(rel: str, text: str | bytes):
    def apply(run: Path) -> None:
        path = run / rel
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return apply


def _truncate(rel: str):
    def apply(run: Path) -> None:
        path = run / rel
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return apply


def _checkpoint_doc(name: str, change):
    def apply(run: Path) -> None:
        path = run / CP / name
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))
    return apply


def _state(change):
    return lambda run: _edit_state(run, change)


CORRUPTIONS = {  # id -> (damage, file named in the message, problem named in the message)
    "missing-state": (lambda run: (run / "state.json").unlink(), "state.json", "state.json is missing"),
    "truncated-state": (_truncate("state.json"), "state.json", "not valid JSON, truncated or corrupt"),
    "invalid-json-state": (_write("state.json", "{not json at all"), "state.json", "not valid JSON"),
    "empty-state": (_write("state.json", ""), "state.json", "it is empty"),
    "binary-state": (_write("state.json", b"\xff\xfe\x00garbage"), "state.json", "not valid JSON"),
    "state-not-an-object": (_write("state.json", "[1, 2, 3]"), "state.json", "a JSON list, not an object"),
    "state-wrong-schema": (_write("state.json", '{"hello": "world"}'), "state.json",
                           "does not match the run schema"),
    "state-bad-task-status": (_state(lambda d: d["task_results"].__setitem__("TASK-001", "DONE")),
                              "state.json", "does not match the run schema (task_results.TASK-001"),
    "state-future-schema": (_state(_set("schema_version", 99)), "state.json", "schema_version 99"),
    "state-of-another-run": (_state(_set("run_id", "someone_else")), "state.json", "belongs to run 'someone_else'"),
    "corrupt-checkpoint": (_write(f"{CP}/005-task_completed-TASK-001.json", "{"),
                           "005-task_completed-TASK-001.json", "corrupt checkpoint"),
    "truncated-checkpoint": (_truncate(f"{CP}/008-task_completed-TASK-002.json"),
                             "008-task_completed-TASK-002.json", "corrupt checkpoint"),
    "checkpoint-event-mismatch": (_checkpoint_doc("003-task_started-TASK-001.json", _set("event", "task_completed")),
                                  "003-task_started-TASK-001.json", "event is 'task_completed'"),
    "checkpoint-of-another-run": (_checkpoint_doc("002-plan_created.json", _set("run_id", "other")),
                                  "002-plan_created.json", "run_id 'other'"),
    "checkpoint-gap": (lambda run: (run / CP / "004-verification_completed-TASK-001.json").unlink(),
                       "checkpoints", "checkpoint sequence gap, expected 004"),
    "stray-checkpoint-file": (_write(f"{CP}/notes.txt", "hi"), "notes.txt", "not a checkpoint file name"),
    "state-lists-fewer": (_state(lambda d: d["checkpoints"].pop()), "state.json",
                          "first unlisted: 008-task_completed-TASK-002.json"),
    "state-lists-more": (_state(lambda d: d["checkpoints"].append("009-task_started-TASK-003.json")),
                         "state.json", "lists checkpoint 009-task_started-TASK-003.json which"),
    "state-claims-unrecorded-completion": (_state(lambda d: d["task_results"].__setitem__("TASK-003", "COMPLETED")),
                                           "state.json", "TASK-003 is COMPLETED but the checkpoints say PENDING"),
    "state-forgets-a-completion": (_state(lambda d: d["task_results"].__setitem__("TASK-002", "PENDING")),
                                   "state.json", "TASK-002 is PENDING but the checkpoints say COMPLETED"),
    "state-hashes-differ": (_state(lambda d: d["file_hashes"]["TASK-001"].__setitem__("src/models.py", "sha256:0")),
                            "state.json", "file hashes of TASK-001 differ"),
    "state-lost-its-plan": (_state(_set("plan", None)), "state.json", "no plan but a plan_created checkpoint"),
}


def _check_refusal(crashed: Path, rc: int, out: str, err: str, file_named: str, problem: str) -> None:
    assert rc == 3, out + err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("builder: "), err
    assert "Traceback" not in err and out == ""  # nothing (re)started or printed
    assert file_named in lines[0] and problem in lines[0], lines[0]
    assert str(crashed) in lines[0]


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_damaged_run_gives_one_line_exit_3_and_changes_nothing(crashed, case, capsys):
    """In-process `builder resume` (cli.main, same code path as the console script)."""
    damage, file_named, problem = CORRUPTIONS[case]
    damage(crashed)
    before = tree_digest(crashed)
    rc = main(["resume", "crashy", "--runs-dir", str(crashed.parent)])
    out, err = capsys.readouterr()
    _check_refusal(crashed, rc, out, err, file_named, problem)
    assert tree_digest(crashed) == before


# One damage as a real process (its exit code and stderr line): every case, this one included, goes
# through the same `main` in-process above (a corrupt checkpoint and a state listing fewer were two
# more subprocesses of the same path).
@pytest.mark.parametrize("case", ["truncated-state"])
def test_damaged_run_refused_by_the_real_builder_process(crashed, case):
    damage, file_named, problem = CORRUPTIONS[case]
    damage(crashed)
    before = tree_digest(crashed)
    proc = builder("resume", "crashy", "--runs-dir", crashed.parent)
    _check_refusal(crashed, proc.returncode, proc.stdout, proc.stderr, file_named, problem)
    assert tree_digest(crashed) == before


def test_resume_refuses_while_another_process_holds_the_lock(crashed):
    store = RunStore(crashed.parent)
    with store.lock("crashy"):
        before = tree_digest(crashed)
        proc = builder("resume", "crashy", "--runs-dir", crashed.parent)
        assert tree_digest(crashed) == before
    assert proc.returncode == 3, proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and proc.stdout == ""
    assert f"run crashy is in use by process {os.getpid()}" in lines[0] and "refused" in lines[0]
    assert not (crashed / "run.lock").exists()  # released


def test_the_lock_of_the_killed_builder_is_free_and_is_taken_over(crashed):
    lock = crashed / "run.lock"
    assert lock.exists()  # left behind by the SIGKILLed `builder new`
    store = RunStore(crashed.parent)
    assert store.lock_holder("crashy") is None
    with store.lock("crashy"):
        assert lock.read_text().strip() == str(os.getpid())
        with pytest.raises(RunLockedError):
            store.ensure_unlocked("crashy")
        with pytest.raises(RunLockedError):
            with store.lock("crashy"):
                pass


def test_validation_alone_never_writes(crashed):
    before = tree_digest(crashed)
    state, latest = RunStore(crashed.parent).resume("crashy")
    assert latest["event"] == "task_completed" and latest["task_id"] == "TASK-002"
    assert state.task_results["TASK-002"] == TaskStatus.COMPLETED
    assert tree_digest(crashed) == before


def test_a_finished_pass_run_has_nothing_to_resume(fresh_todo_run):
    store, run_id = fresh_todo_run
    run = store.run_dir(run_id)
    before = tree_digest(run)
    proc = builder("resume", run_id, "--runs-dir", store.base)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"run {run_id} already finished with PASS; nothing to resume" in proc.stdout
    assert "BUILD COMPLETE" in proc.stdout and "[3/6]" not in proc.stdout
    assert tree_digest(run) == before


def test_a_finished_fail_run_has_nothing_to_resume_and_exits_1(fresh_todo_run):
    store, run_id = fresh_todo_run
    run = store.run_dir(run_id)

    def fail(d):
        d["status"] = "FAIL"
        d["review"]["overall_status"] = "FAIL"
    _edit_state(run, fail)
    before = tree_digest(run)
    proc = builder("resume", run_id, "--runs-dir", store.base)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"run {run_id} already finished with FAIL; nothing to resume" in proc.stdout
    assert "BUILD FAILED" in proc.stdout and "[3/6]" not in proc.stdout
    assert tree_digest(run) == before


def test_rebuild_statuses_resets_running_and_ready_only():
    state = RunState(run_id="r", trace_id="t", user_request="x", task_results={
        "TASK-001": "COMPLETED", "TASK-002": "FAILED", "TASK-003": "BLOCKED", "TASK-004": "RUNNING",
        "TASK-005": "READY", "TASK-006": "PENDING", "TASK-007": "TIMED_OUT"})
    assert rebuild_statuses(state) == ["TASK-004", "TASK-005"]
    assert {k: v.value for k, v in state.task_results.items()} == {
        "TASK-001": "COMPLETED", "TASK-002": "FAILED", "TASK-003": "BLOCKED", "TASK-004": "PENDING",
        "TASK-005": "PENDING", "TASK-006": "PENDING", "TASK-007": "TIMED_OUT"}
