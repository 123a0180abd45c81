"""`builder status`, `runs` and `report` show a stored PASS only when judging the run now confirms it.

Hostile trial 2026-12-07 (A4, A8): after the app was swapped for a broken one once its verification
had passed, or after `state.json`'s status was edited to PASS on a failed run, all three views printed
PASS (status with "next step: done"), while `builder trace` and `builder review` said FAIL. A view
now re-judges a stored PASS read-only, as `builder trace` does, and validates the run first.
"""

from __future__ import annotations

import json

import pytest
from run_copies import cli


def _swap_after_verification(store, run_id: str) -> str:
    """A file the verification hashed, changed afterwards (the working code replaced)."""
    ws = store.workspace(run_id)
    target = next(p for p in sorted((ws / "src").glob("*.py")) if p.name != "__init__.py")
    target.write_text(target.read_text() + "\n# replaced after verification\n")
    return target.relative_to(ws).as_posix()


def _status_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("run "))


def test_status_of_a_run_changed_after_verification_is_not_pass_bug(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    code, out, _ = cli(capsys, "status", run_id, "--runs-dir", str(store.base))
    assert code == 0 and "status PASS" in _status_line(out)   # untouched: still PASS (no false alarm)
    changed = _swap_after_verification(store, run_id)
    code, out, _ = cli(capsys, "status", run_id, "--runs-dir", str(store.base))
    assert "status FAIL" in _status_line(out), out
    assert f"{changed} changed after verification" in out
    assert "next step: done" not in out and f"builder review {run_id}" in out
    code, out, _ = cli(capsys, "status", run_id, "--runs-dir", str(store.base), "--json")
    doc = json.loads(out)
    assert doc["status"] == "FAIL" and doc["stored_status"] == "PASS"
    assert any(r["status"] == "FAIL" for r in doc["requirements"])


def test_runs_lists_a_run_changed_after_verification_as_fail_bug(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    _swap_after_verification(store, run_id)
    code, out, _ = cli(capsys, "runs", "--runs-dir", str(store.base))
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith(run_id))
    assert row.split()[1] == "FAIL", out


def _edit_state(store, run_id: str, **fields) -> None:
    path = store.state_path(run_id)
    doc = json.loads(path.read_text())
    doc.update(fields)
    path.write_text(json.dumps(doc))


def test_status_edited_to_pass_on_a_failed_requirement_is_not_shown_pass_bug(fresh_todo_run, capsys):
    """Only state.json's status word edited: the evidence and the review still say what happened."""
    store, run_id = fresh_todo_run
    ev = store.workspace_evidence(run_id)
    doc = json.loads(ev.read_text())
    first = sorted(doc["requirements"])[0]
    doc["requirements"][first]["status"] = "failed"   # the evidence now disagrees: nothing verified it
    ev.write_text(json.dumps(doc))
    code, out, _ = cli(capsys, "status", run_id, "--runs-dir", str(store.base))
    assert "status FAIL" in _status_line(out), out
    assert "stored status PASS" in out


def test_report_of_a_run_changed_after_verification_is_not_pass_bug(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    _swap_after_verification(store, run_id)
    code, out, _ = cli(capsys, "report", run_id, "--runs-dir", str(store.base))
    assert code == 0
    page = store.html_report(run_id).read_text()
    title = page.split("<h1>", 1)[1].split("</h1>", 1)[0]
    assert "FAIL" in title and "PASS" not in title, title
    assert 'id="status-reason"' in page and "changed after verification" in page


def test_report_and_runs_refuse_a_contradictory_run_bug(fresh_todo_run, capsys):
    """A task flipped to COMPLETED against its checkpoints: status/trace/review said exit 3, report
    wrote a PASS page and runs listed PASS."""
    store, run_id = fresh_todo_run
    path = store.state_path(run_id)
    doc = json.loads(path.read_text())
    task = sorted(doc["task_results"])[0]
    doc["task_results"][task] = "FAILED"
    path.write_text(json.dumps(doc))
    code, _, err = cli(capsys, "report", run_id, "--runs-dir", str(store.base))
    assert code == 3 and "contradicts the checkpoints" in err
    code, out, _ = cli(capsys, "runs", "--runs-dir", str(store.base))
    row = next(line for line in out.splitlines() if line.startswith(run_id))
    assert row.split()[1] == "CORRUPT", out


@pytest.mark.parametrize("view", ["status", "runs"])
def test_a_failed_run_is_never_shown_pass(fresh_todo_run, capsys, view):
    """A stored FAIL stays FAIL in the views even when judging it now would pass (views never upgrade)."""
    store, run_id = fresh_todo_run
    _edit_state(store, run_id, status="FAIL")
    code, out, _ = cli(capsys, view, *([run_id] if view == "status" else []), "--runs-dir", str(store.base))
    line = _status_line(out) if view == "status" else next(x for x in out.splitlines() if x.startswith(run_id))
    assert "FAIL" in line and "PASS" not in line


def test_runtime_line_names_a_failed_black_box_check_bug():
    """A3b: `runtime: PASS (9/9 checks)` was printed while its acceptance list held a failed check."""
    from harness.models.results import AcceptanceCheck, RuntimeCheck, RuntimeResult
    from harness.orchestration.steps import runtime_line

    checks = [RuntimeCheck(name="health", ok=True, detail="200")]
    good = AcceptanceCheck(requirement="REQ-001", name="create a todo and read it back", ok=True)
    bad = AcceptanceCheck(requirement="REQ-003", name="complete a todo and read it back", ok=False)
    line = runtime_line(RuntimeResult(status="PASS", checks=checks, acceptance=[good, bad]))
    assert "black-box: 1/2 checks passed, FAILED: REQ-003 complete a todo and read it back" in line
    line = runtime_line(RuntimeResult(status="PASS", checks=checks, acceptance=[good]))
    assert line.endswith("black-box: 1/1 checks passed") and "FAILED" not in line


def test_malformed_evidence_is_shown_fail_not_a_traceback_bug(fresh_todo_run, capsys):
    """The full run found `builder report` crashing (TypeError) on a hostile run's evidence once
    the report re-judged it: evidence the judge cannot read confirms nothing."""
    store, run_id = fresh_todo_run
    ev = store.workspace_evidence(run_id)
    doc = json.loads(ev.read_text())
    doc["forgery"] = ["not an entry"]
    ev.write_text(json.dumps(doc))
    for view in ("status", "report"):
        code, out, _ = cli(capsys, view, run_id, "--runs-dir", str(store.base))
        assert code == 0
    code, out, _ = cli(capsys, "status", run_id, "--runs-dir", str(store.base))
    assert "status FAIL" in _status_line(out), out
