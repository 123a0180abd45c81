"""The runtime result reaches the end-of-run summary (`Runtime: YES/NO`) and the review."""

from __future__ import annotations

from harness.trace.review_stage import format_summary, review_run
from harness.verification.runtime import verify_runtime


def test_runtime_pass_shows_runtime_yes_in_summary_and_review(todo_run):
    store, ctx = todo_run
    report = ctx.state.review
    assert ctx.state.runtime.status == "PASS" and report.overall_status == "PASS"
    assert report.requirements and all(r.runtime is True for r in report.requirements)
    summary = format_summary(report)
    assert summary.count("Runtime: YES") == len(report.requirements) and "Runtime: NO" not in summary


def test_a_real_runtime_failure_shows_runtime_no_and_fails_the_review(fresh_todo_run):
    store, run_id = fresh_todo_run
    main_py = store.workspace(run_id) / "src" / "main.py"
    main_py.write_text(main_py.read_text() + "\nraise RuntimeError('broken at import')\n")
    runtime = verify_runtime(store.workspace(run_id), task_hint="TASK-004")
    assert runtime.status == "FAIL"
    state = store.load(run_id)
    state.runtime = runtime
    matrix, report = review_run(store, state)
    assert report.overall_status == "FAIL"
    assert all(r.runtime is False for r in report.requirements)
    assert any("runtime" in note for note in report.notes)
    summary = format_summary(report)
    assert summary.count("Runtime: NO") == len(report.requirements) and "Runtime: YES" not in summary
    assert all("runtime check failed" in r.missing for r in matrix.requirements)
