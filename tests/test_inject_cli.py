"""Issue 5 / Gate 2 as a user runs it: `builder inject` on a finished Todo run (real pytest runs)."""

from __future__ import annotations

import json
import re
from run_copies import cli, workspace_hashes

from harness.models.enums import TaskStatus


def test_inject_syntax_error_is_repaired_with_a_readable_trail(repaired_inject_run):
    """The shared inject (conftest.py: repaired_inject_run, also read by test_capabilities.py)."""
    injected = repaired_inject_run
    store, run_id, code, out, before = injected.store, injected.run_id, injected.code, injected.out, injected.before
    assert code == 0, out
    assert f"inject works on a copy of run {injected.original}: run {run_id}" in out
    # bug: inject ended PASS after skipping the audit; the repaired copy is audited like any run
    # (here the repair restored the audited files: the copied audit.json is the audit of them)
    assert "mutation audit skipped" not in out and "AUDIT" in out
    assert store.read_audit(run_id) is not None
    trail = [
        r"injected syntax-error into src/main.py; owner TASK-004",
        r"detected FAIL: CODE_ERROR in src/main.py \(line \d+\) -> TASK-004",
        r"repair TASK-004 attempt 1/3: CODE_ERROR signature [0-9a-f]{12} \(generator\) -> src/main.py",
        r"re-verify TASK-004: PASS",
        r"TASK-004 COMPLETED",
        r"BUILD COMPLETE",
    ]
    pos = 0
    for pattern in trail:                                   # in this order
        match = re.compile(pattern).search(out, pos)
        assert match, f"{pattern!r} not found after offset {pos} in:\n{out}"
        pos = match.end()
    assert workspace_hashes(store.workspace(run_id)) == before     # main.py regenerated, nothing else touched
    state = store.load(run_id)
    assert state.task_results["TASK-004"] == TaskStatus.COMPLETED and state.review.overall_status == "PASS"
    assert 1 <= state.repair_attempts["TASK-004"] <= 3
    failing = [r for r in state.verification_results if r.task_id == "TASK-004" and r.status == "FAIL"]
    assert failing and failing[0].failure_type.value == "CODE_ERROR"
    assert failing[0].diagnostics.get("file") == "src/main.py"
    saved = json.loads(store.artifact_path(run_id, "verification").read_text())["results"]
    assert any(r["task_id"] == "TASK-004" and r["diagnostics"].get("stderr_tail") for r in saved)


def test_no_op_repair_detects_the_loop_and_escalates(looped_inject_run, capsys):
    """The shared inject with --no-op-repair (conftest.py: looped_inject_run, read-only here)."""
    injected = looped_inject_run
    store, run_id, code, out = injected.store, injected.run_id, injected.code, injected.out
    d = str(store.base)
    assert code == 1
    assert "LOOP DETECTED" in out and "ESCALATE TASK-004" in out
    assert "TASK-005 BLOCKED" in out and "TASK-004 FAILED" in out and "BUILD FAILED" in out
    state = store.load(run_id)
    assert state.task_results["TASK-004"] == TaskStatus.FAILED
    assert state.task_results["TASK-005"] == TaskStatus.BLOCKED
    assert all(state.task_results[t] == TaskStatus.COMPLETED for t in ("TASK-001", "TASK-002", "TASK-003"))
    report = json.loads((store.run_dir(run_id) / "failures" / "TASK-004.json").read_text())
    assert list(report["signatures"].values()) == [3]
    sig = next(iter(report["signatures"]))
    assert report["reason"].startswith(f"LOOP DETECTED: the same failure signature {sig[:12]}")
    assert report["attempts"] and all(a["source"] == "no-op" and a["files_changed"] == [] for a in report["attempts"])
    assert all(a["diagnostics"].get("stderr_tail") for a in report["attempts"])
    assert all(a["location"]["file"] == "src/main.py" and a["location"]["line"] for a in report["attempts"])
    from harness.agents.repair_context import CONTEXT_CAP

    # the broken file first; the earlier tasks' files the failing tests reach are editable too (#50)
    assert all(0 < a["context_chars"] <= CONTEXT_CAP and a["allowed"][0] == "src/main.py" for a in report["attempts"])
    assert "src/main.py" in report["next_step"] and "--harness-run" in report["next_step"]
    assert "def broken(:" in (store.workspace(run_id) / "src" / "main.py").read_text()   # left as it was
    code, logs, _ = cli(capsys, "logs", run_id, "--runs-dir", d)
    assert code == 0
    assert logs.count(f"signature {sig[:12]}") >= 3 and "LOOP DETECTED" in logs
    assert f"failure report: {store.run_dir(run_id) / 'failures' / 'TASK-004.json'}" in logs


def test_inject_usage_errors_are_one_line(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    d = str(store.base)
    code, _, err = cli(capsys, "inject", run_id, "syntax-error", "--file", "src/nope.py", "--runs-dir", d)
    assert code == 2 and err.count("\n") == 1 and "src/nope.py" in err
    code, _, err = cli(capsys, "inject", "no_such_run", "syntax-error", "--runs-dir", d)
    assert code == 4 and err.count("\n") == 1
    (store.workspace(run_id) / "notes.txt").write_text("not owned by any task\n")
    code, _, err = cli(capsys, "inject", run_id, "empty", "--file", "notes.txt", "--runs-dir", d)
    assert code == 2 and "no task" in err


def test_inject_on_an_unowned_file_pointed_at_a_file_list_status_does_not_show_bug(fresh_todo_run, capsys):
    """Bug: 'pick a file from `builder status`', which lists tasks, not files; the error now names them."""
    store, run_id = fresh_todo_run
    code, _, err = cli(capsys, "inject", run_id, "syntax-error", "--file", "src/nope.py", "--runs-dir", str(store.base))
    assert code == 2
    assert f"no task of run {run_id} owns src/nope.py; files its tasks own: " in err
    assert "src/main.py" in err and "builder status" not in err
