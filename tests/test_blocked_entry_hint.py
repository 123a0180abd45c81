"""Fresh trial 2026-12-07 (D1 follow-on): when a task that is not the app's entry fails, the task
that writes src/main.py is BLOCKED, the app has no entry point and every requirement fails with
"add src/main.py". The runtime hint now names the failed task that blocked the entry instead.
Real stages (SPEC, PLAN offline) and a real runtime check on the run's workspace without main.py."""

from __future__ import annotations

from harness.models.enums import TaskStatus
from harness.orchestration.context import RunContext
from harness.orchestration.pipeline import STAGES, run_stage
from harness.orchestration.steps import runtime_step
from harness.providers.mock import MockProvider
from harness.state.store import RunStore
from helpers import TODO


def _planned(tmp_path, run_id: str) -> RunContext:
    store = RunStore(tmp_path / "runs")
    store.create_run(TODO, run_id=run_id)
    ctx = RunContext(store=store, state=store.load(run_id), llm=MockProvider(), say=lambda _line: None)
    run_stage(ctx, 1, STAGES[0])
    run_stage(ctx, 2, STAGES[1])
    return ctx


def test_no_entry_point_hint_names_the_failed_task_that_blocked_it_bug(tmp_path):
    ctx = _planned(tmp_path, "blocked")
    entry = next(t for t in ctx.state.plan.tasks if "src/main.py" in t.files_touched)
    failed = entry.depends_on[-1]
    ctx.state.task_results.update({failed: TaskStatus.FAILED, entry.id: TaskStatus.BLOCKED})
    runtime = runtime_step(ctx)
    assert runtime.status == "FAIL" and not (ctx.workspace / "src" / "main.py").exists()
    assert runtime.hint == (f"src/main.py was not written: {entry.id} (the app's entry point) was BLOCKED by "
                            f"{failed} FAILED; every requirement fails until that task passes")


def test_no_entry_point_hint_stays_when_the_entry_task_itself_failed(tmp_path):
    ctx = _planned(tmp_path, "failed")
    entry = next(t for t in ctx.state.plan.tasks if "src/main.py" in t.files_touched)
    ctx.state.task_results[entry.id] = TaskStatus.FAILED
    assert runtime_step(ctx).hint == "add src/main.py defining `app = FastAPI()`"
