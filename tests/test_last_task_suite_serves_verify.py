"""The last task's whole-suite session serves VERIFY's whole suite too (harness/speed/task_suite.py):
one fresh execution against the final bytes, read by both verdicts — and only when nothing changed
between them. A change to the workspace after the task's session, a failing session or a document
edited after it and VERIFY runs the suite itself; with HARNESS_SPEED=0 both sessions always run."""

from __future__ import annotations

import json

import pytest

from harness.orchestration.context import RunContext
from harness.orchestration.steps import acceptance_for, runtime_inputs, verify_task_step, verify_workspace_step
from harness.providers.mock import MockProvider
from harness.verification.carry_inputs import is_whole_suite

pytestmark = pytest.mark.slow

FAILING_TEST = '''

def test_added_after_the_last_tasks_session():
    assert False, "added after the last task's session"
'''


def _ctx(fresh_todo_run) -> RunContext:
    store, run_id = fresh_todo_run
    return RunContext(store=store, state=store.load(run_id), llm=MockProvider(), say=lambda _line: None)


def _last(ctx):
    return next(t for t in ctx.state.plan.tasks if any(is_whole_suite(c) for c in t.verification))


def _last_tasks_session(ctx):
    """The last task verified as the build does it: the door's hook beside it, then its session."""
    last = _last(ctx)
    inputs = runtime_inputs(ctx)
    ctx.speed.beside_task(ctx, last, inputs, acceptance_for(ctx, inputs[0], inputs[1]))
    try:
        results = verify_task_step(ctx, last)
    finally:
        ctx.speed.task_verified()
    return last, results


def _doc(ctx, result) -> bytes:
    return (ctx.store.run_dir(ctx.run_id) / result.evidence_path).read_bytes()


def _executed_everything(doc: bytes) -> bool:
    doc = json.loads(doc)
    tests = doc["tests"].values()
    return bool(tests) and "carried" not in doc and not any(t.get("carried_from") for t in tests)


def test_the_last_tasks_session_and_the_final_suite_are_one_execution_bug(todo_run):
    """Bug (#46 follow-up): the last task's whole-suite session and the final whole suite both ran
    every test on the same final bytes (the second beside the first): ~0.2-0.3 s of CPU per entity
    spent twice. Now the build runs the suite once and both verdicts read that execution."""
    store, ctx = todo_run
    results = ctx.state.verification_results
    final = [r for r in results if r.task_id == "WORKSPACE"][-1]
    task = next(r for r in results if r.task_id == _last(ctx).id and is_whole_suite(r.command))
    assert final.reused_from == task.evidence_path and final.evidence_digest == task.evidence_digest
    assert task.status == final.status == "PASS" and task.carried == final.carried == 0
    assert task.reused_from is None and task.runner == "warm"
    assert _doc(ctx, final) == _doc(ctx, task) and _executed_everything(_doc(ctx, final))
    executed_suites = [r for r in results if is_whole_suite(r.command) and r.reused_from is None]
    assert executed_suites == [task]


def test_the_last_tasks_session_carries_nothing_and_verify_adopts_it_on_unchanged_bytes(fresh_todo_run):
    ctx = _ctx(fresh_todo_run)
    try:
        last, results = _last_tasks_session(ctx)
        assert ctx.speed.suite_ahead is None            # no second copy of the suite beside the task
        [task] = results
        assert task.status == "PASS" and task.carried == 0 and _executed_everything(_doc(ctx, task))

        final = verify_workspace_step(ctx)

        assert final.reused_from == task.evidence_path and final.evidence_digest == task.evidence_digest
        assert ctx.speed.suite_taken_from == last.id
        assert ctx.store.workspace_evidence(ctx.run_id).read_bytes() == _doc(ctx, task)
        assert ctx.state.verification_results[-1] is final and final.task_id == "WORKSPACE"
    finally:
        ctx.speed.cancel(ctx)


def test_a_workspace_changed_between_the_last_task_and_verify_is_run_again_and_fails(fresh_todo_run):
    ctx = _ctx(fresh_todo_run)
    try:
        _last, [task] = _last_tasks_session(ctx)
        assert task.status == "PASS"
        with (ctx.workspace / "tests" / "test_models.py").open("a") as out:
            out.write(FAILING_TEST)                     # a write after the task's session ended

        final = verify_workspace_step(ctx)

        assert final.status == "FAIL" and final.reused_from is None and ctx.speed.suite_taken_from == ""
        assert final.evidence_digest != task.evidence_digest    # a second execution
        assert "test_added_after_the_last_tasks_session" in final.stdout + final.stderr
        assert _executed_everything(ctx.store.workspace_evidence(ctx.run_id).read_bytes())
    finally:
        ctx.speed.cancel(ctx)


def test_a_failed_last_task_session_is_never_adopted(fresh_todo_run):
    ctx = _ctx(fresh_todo_run)
    with (ctx.workspace / "tests" / "test_models.py").open("a") as out:
        out.write(FAILING_TEST)
    try:
        _last, [task] = _last_tasks_session(ctx)
        assert task.status == "FAIL"

        final = verify_workspace_step(ctx)

        assert final.status == "FAIL" and final.reused_from is None and final is not task
        assert final.evidence_digest != task.evidence_digest
    finally:
        ctx.speed.cancel(ctx)


def test_a_task_document_edited_after_its_session_is_not_adopted(fresh_todo_run):
    ctx = _ctx(fresh_todo_run)
    try:
        _last, [task] = _last_tasks_session(ctx)
        path = ctx.store.run_dir(ctx.run_id) / task.evidence_path
        path.write_bytes(path.read_bytes() + b"\n")      # not the bytes the plugin sent

        final = verify_workspace_step(ctx)

        assert final.status == "PASS" and final.reused_from is None
        assert final.evidence_digest != task.evidence_digest
    finally:
        ctx.speed.cancel(ctx)


def test_with_speed_off_the_last_task_and_verify_each_run_the_suite(fresh_todo_run, monkeypatch):
    monkeypatch.setenv("HARNESS_SPEED", "0")
    ctx = _ctx(fresh_todo_run)
    _last, [task] = _last_tasks_session(ctx)
    assert ctx.speed.suite_in_task == "" and task.runner == "cold"

    final = verify_workspace_step(ctx)

    assert task.status == final.status == "PASS" and final.reused_from is None and final.runner == "cold"
    assert final.evidence_digest != task.evidence_digest
