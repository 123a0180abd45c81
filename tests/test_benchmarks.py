"""`builder bench` helpers: the check table and the time split read real run data."""

from harness.benchmarks import quick_checks, time_split


def test_quick_checks_all_pass_on_a_real_todo_run(todo_run):
    _, ctx = todo_run
    checks = quick_checks(ctx)
    assert len(checks) == 9
    assert [name for name, ok, _ in checks if not ok] == []


def test_quick_checks_fail_when_an_artifact_is_missing(fresh_todo_run):
    from harness.orchestration.context import RunContext
    from harness.providers.mock import MockProvider

    store, run_id = fresh_todo_run
    (store.run_dir(run_id) / "review.json").unlink()
    ctx = RunContext(store=store, state=store.load(run_id), llm=MockProvider())
    failed = {name for name, ok, _ in quick_checks(ctx) if not ok}
    assert failed == {"required artifacts exist"}


def test_time_split_reports_overhead_percentage(todo_run):
    _, ctx = todo_run
    lines = time_split(ctx, total_ms=ctx.subprocess_ms * 2)
    assert "harness overhead" in lines[-1] and "(50.0%)" in lines[-1]
