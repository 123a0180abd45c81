"""#46: the final whole suite may start beside the last task's session (harness/speed/suite_ahead.py),
on a clone of the run's warm worker — and VERIFY adopts it only when it passed on exactly the final
bytes; anything else and VERIFY runs the suite itself, every test executed, nothing carried."""

from __future__ import annotations

import json

import pytest

from harness.orchestration.context import RunContext
from harness.orchestration.steps import verify_workspace_step
from harness.providers.mock import MockProvider
from harness.speed import suite_ahead

pytestmark = pytest.mark.slow

FAILING_TEST = '''

def test_added_after_the_suite_started():
    assert False, "added after the suite ahead started"
'''


def _ctx(fresh_todo_run) -> RunContext:
    store, run_id = fresh_todo_run
    return RunContext(store=store, state=store.load(run_id), llm=MockProvider(), say=lambda _line: None)


def _last(ctx):
    return next(t for t in ctx.state.plan.tasks if t.verification == ["python -m pytest -q"])


def _executed_everything(ctx) -> bool:
    doc = json.loads(ctx.store.workspace_evidence(ctx.run_id).read_text())
    tests = doc["tests"].values()
    return bool(tests) and "carried" not in doc and not any(t.get("carried_from") for t in tests)


def _aside_left(ctx) -> bool:
    return (ctx.store.evidence_dir(ctx.run_id) / suite_ahead.ASIDE_NAME).exists()


def test_the_suite_started_beside_the_last_task_is_adopted_when_it_passed_on_the_final_bytes(fresh_todo_run):
    ctx = _ctx(fresh_todo_run)
    ctx.speed.suite_ahead = suite_ahead.start(ctx, _last(ctx).id)
    assert ctx.speed.suite_ahead is not None

    final = verify_workspace_step(ctx)

    assert final.status == "PASS" and final.runner == "warm" and final.carried == 0
    assert ctx.speed.suite_taken_from == _last(ctx).id
    assert _executed_everything(ctx) and not _aside_left(ctx)
    assert ctx.state.verification_results[-1] is final


def test_a_workspace_changed_after_the_suite_started_is_verified_again_and_fails(fresh_todo_run):
    ctx = _ctx(fresh_todo_run)
    ahead = suite_ahead.start(ctx, _last(ctx).id)
    ctx.speed.suite_ahead = ahead
    ahead.wait()
    assert ahead.result.status == "PASS"          # it passed on the bytes it ran
    with (ctx.workspace / "tests" / "test_models.py").open("a") as out:
        out.write(FAILING_TEST)                   # a repair rewrites a file after it ended

    final = verify_workspace_step(ctx)

    assert final.status == "FAIL" and ctx.speed.suite_taken_from == ""
    assert "test_added_after_the_suite_started" in final.stdout + final.stderr
    assert _executed_everything(ctx) and not _aside_left(ctx)


def test_a_suite_that_failed_ahead_is_never_adopted_verify_runs_it_again(fresh_todo_run):
    ctx = _ctx(fresh_todo_run)
    with (ctx.workspace / "tests" / "test_models.py").open("a") as out:
        out.write(FAILING_TEST)
    ahead = suite_ahead.start(ctx, _last(ctx).id)
    ctx.speed.suite_ahead = ahead
    ahead.wait()
    assert ahead.result.status == "FAIL"

    final = verify_workspace_step(ctx)

    assert final is not ahead.result and final.status == "FAIL" and ctx.speed.suite_taken_from == ""
    assert not _aside_left(ctx)


def test_with_speed_off_nothing_starts_beside_the_last_task(fresh_todo_run, monkeypatch):
    monkeypatch.setenv("HARNESS_SPEED", "0")
    ctx = _ctx(fresh_todo_run)
    last = _last(ctx)
    from harness.orchestration.steps import acceptance_for, runtime_inputs

    inputs = runtime_inputs(ctx)
    ctx.speed.beside_task(ctx, last, inputs, acceptance_for(ctx, inputs[0], inputs[1]))
    ctx.speed.task_verified()
    assert ctx.speed.suite_ahead is None and ctx.speed.runtime_ahead is None


NEVER_ENDING_TEST = '''

def test_that_never_ends():
    import threading

    threading.Event().wait()
'''


def test_a_run_ending_before_verify_stops_the_suite_started_ahead_instead_of_waiting_for_it_bug(fresh_todo_run):
    """Bug (#46): the door's cancel (a run ending before VERIFY: Ctrl+C, a failed last task) waited
    for the final suite started beside the last task to run to its own end — a test that never ends
    held it until pytest's 60 s per-test limit. discard() now stops the suite's clone first: the
    session is killed, no outcome of it is read (none is kept: VERIFY never came) and nothing is left."""
    ctx = _ctx(fresh_todo_run)
    with (ctx.workspace / "tests" / "test_models.py").open("a") as out:
        out.write(NEVER_ENDING_TEST)
    ahead = suite_ahead.start(ctx, _last(ctx).id)
    assert ahead is not None
    ahead.discard()
    assert not ahead._thread.is_alive() and not _aside_left(ctx)
    shown = (ahead.result.stdout + ahead.result.stderr) if ahead.result is not None else ""
    assert "Timeout" not in shown, "the session ran to its per-test limit"
    assert ahead.result is None or ahead.result.status != "PASS"
