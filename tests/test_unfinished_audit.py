"""Issue 49: a run whose mutation audit did not finish is not PASS to any judge (`builder trace`,
`builder review`, `pytest --harness-run`) until `builder audit` or `builder resume` completes it;
`builder inject` works on a copy of the run and never changes the user's run."""

from __future__ import annotations

import json

from run_copies import cli, harness_run_in_process, workspace_hashes

UNFINISHED = "the mutation audit did not finish"


def test_interrupted_audit_is_not_pass_to_trace_review_or_harness_run(fresh_todo_run, capsys, tmp_path):
    """Bug: with no audit.json (the audit interrupted) `trace --fail-under 100` said 23/23 PASS and
    `review` PASS with no note. The run's audit.json removed stands for the interrupted audit (the
    real interrupt: test_interrupts_everywhere.py's AUDIT case, resumed)."""
    store, run_id = fresh_todo_run
    d = str(store.base)
    store.artifact_path(run_id, "audit").unlink()
    code, out, _ = cli(capsys, "trace", run_id, "--fail-under", "100", "--runs-dir", d)
    assert code == 1 and UNFINISHED in out and f"`builder resume {run_id}`" in out
    code, out, _ = cli(capsys, "trace", run_id, "--fail-under", "50", "--runs-dir", d)
    assert code == 1, out   # not a coverage question: an evidence problem at any threshold
    code, out, _ = cli(capsys, "review", run_id, "--runs-dir", d)
    assert code == 1 and UNFINISHED in out and f"REVIEW FAIL  run {run_id}" in out
    (tmp_path / "elsewhere").mkdir()
    proc = harness_run_in_process(run_id, store.base, tmp_path / "elsewhere", capsys)
    assert proc.returncode == 1 and "HARNESS RUN PASS" not in proc.stdout, proc.stdout[-2000:]
    code, out, _ = cli(capsys, "audit", run_id, "--runs-dir", d)
    assert code == 0, out
    assert cli(capsys, "trace", run_id, "--fail-under", "100", "--runs-dir", d)[0] == 0
    assert cli(capsys, "review", run_id, "--runs-dir", d)[0] == 0


def test_a_no_audit_run_is_not_held_back_by_a_missing_audit(fresh_todo_run, capsys):
    """--no-audit is the user's choice: no audit.json is expected, the verdict stands."""
    store, run_id = fresh_todo_run
    state = store.load(run_id)
    state.options.audit = False
    store.save(state)
    store.artifact_path(run_id, "audit").unlink()
    code, out, _ = cli(capsys, "trace", run_id, "--fail-under", "100", "--runs-dir", str(store.base))
    assert code == 0 and UNFINISHED not in out


def test_inject_no_op_repair_never_breaks_the_users_run(looped_inject_run, capsys):
    """Bug: `builder inject … --no-op-repair` (as the README suggests) left the user's run BUILD
    FAILED for good. Now it works on `<id>-inject-1`, named in its output; the original is untouched."""
    injected = looped_inject_run
    store, original = injected.store, injected.original
    assert injected.code == 1 and "BUILD FAILED" in injected.out
    assert f"inject works on a copy of run {original}: run {injected.run_id}" in injected.out
    assert store.load(injected.run_id).status.value == "FAIL"
    assert store.load(original).status.value == "PASS"
    assert workspace_hashes(store.workspace(original)) == injected.before
    assert "def broken(:" not in (store.workspace(original) / "src" / "main.py").read_text()
    review = json.loads(store.artifact_path(original, "review").read_text())
    assert review["overall_status"] == "PASS"


def test_each_inject_gets_its_own_numbered_copy(fresh_todo_run):
    from harness.state.run_copy import copy_run

    store, run_id = fresh_todo_run
    first, second = copy_run(store, run_id, "inject"), copy_run(store, run_id, "inject")
    assert (first, second) == (f"{run_id}-inject-1", f"{run_id}-inject-2")
    for copy in (first, second):
        state = store.checked(copy)   # the copy passes the checkpoint checks under its own id
        assert state.run_id == copy and not store.lock_path(copy).exists()
    assert store.checked(run_id).run_id == run_id
