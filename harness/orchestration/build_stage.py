"""The sequential build loop: one task at a time, build -> verify -> (repair) -> checkpoint."""

from __future__ import annotations

import time

from harness.agents.builder import Builder
from harness.errors import HarnessError, ProviderConfigError, ProviderUnavailableError, BudgetExceededError
from harness.models.enums import FailureType, RunStatus, TaskStatus
from harness.models.results import VerificationResult
from harness.models.tasks import Task
from harness.offline.generator import UnsupportedFeatureError
from harness.orchestration.context import RunContext
from harness.orchestration.dag import DagEngine
from harness.orchestration.repair import repair_task
from harness.orchestration.stage import Done
from harness.orchestration.steps import record_task, verify_task_step
from harness.sandbox.local import LocalSandbox
from harness.tools.file_tools import FileTools


def task_status_line(task: Task, status: TaskStatus, results: list[VerificationResult], extra: str = "") -> str:
    ms = sum(r.duration_ms for r in results)
    failed = next((r for r in results if r.status == "FAIL"), None)
    why = f" ({failed.failure_type.value if failed.failure_type else 'FAIL'})" if failed else ""
    from harness.verification.carry_inputs import carry_note

    carried = "".join(carry_note(r) for r in results)
    return f"  {task.id} {status.value:<9} {task.description[:60]}{why} [{ms} ms]{carried}{extra}"


def dependency_results(ctx: RunContext, task: Task) -> list[VerificationResult]:
    latest: dict[str, VerificationResult] = {}
    for r in ctx.state.verification_results:
        if r.task_id in task.depends_on:
            latest[r.task_id] = r
    return [latest[k] for k in sorted(latest)]


def build_one(ctx: RunContext, task: Task) -> tuple[bool, str, FailureType | None]:
    """Write the task's files through the allowlisted tools; (ok, error, failure type)."""
    events = ctx.events

    def violation(path: str) -> None:
        events.emit("build", "permission_denied", agent="builder", task_id=task.id, tool="write_file",
                    error=f"write outside files_touched refused: {path}")

    tools = FileTools(LocalSandbox(ctx.workspace), task.files_touched, on_violation=violation)
    started = time.monotonic()
    try:
        outcome = Builder(ctx.llm).build(task, ctx.state.spec, tools, dependency_results(ctx, task),
                                         plan=ctx.state.plan, workspace=ctx.workspace)
    except PermissionError as exc:
        return False, str(exc), FailureType.CONFIG_ERROR
    except OSError as exc:  # e.g. a planned name the file system refuses (ENAMETOOLONG): data, not a crash
        events.emit("build", "failed", agent="builder", task_id=task.id, error=f"cannot write: {exc.strerror or exc}")
        return False, f"cannot write a planned file: {exc.strerror or exc}", FailureType.CONFIG_ERROR
    except (ProviderConfigError, ProviderUnavailableError, BudgetExceededError):
        raise
    except UnsupportedFeatureError as exc:   # asked for, not buildable offline: named, not a config defect
        events.emit("build", "unsupported", agent="builder", task_id=task.id, error=str(exc))
        return False, f"{exc}; an LLM provider is needed (set OPENAI_API_KEY)", FailureType.UNSUPPORTED
    except HarnessError as exc:
        events.emit("build", "failed", agent="builder", task_id=task.id, error=str(exc))
        return False, str(exc), FailureType.CONFIG_ERROR
    events.emit("build", "completed", agent="builder", task_id=task.id, tool=outcome.source,
                duration_ms=int((time.monotonic() - started) * 1000), files=outcome.written)
    return True, "", None


def failure_result(task: Task, error: str, ftype: FailureType) -> VerificationResult:
    return VerificationResult(task_id=task.id, status="FAIL", command="build", exit_code=None,
                              stderr=error, failure_type=ftype, diagnostics={"summary": error[:300]})


def run_task(ctx: RunContext, task: Task) -> TaskStatus:
    """Build, verify and (if enabled) repair one task; persist checkpoints around it."""
    ctx.state.task_results[task.id] = TaskStatus.RUNNING
    ctx.checkpoint("task_started", {"description": task.description}, task.id)
    ctx.events.emit("build", "started", agent="builder", task_id=task.id)
    ok, error, ftype = build_one(ctx, task)
    if not ok:
        results = [failure_result(task, error, ftype)]
        ctx.record_verification(results)
        status = TaskStatus.FAILED
    else:
        from harness.orchestration.steps import acceptance_for, runtime_inputs

        inputs = runtime_inputs(ctx)
        ctx.speed.beside_task(ctx, task, inputs, acceptance_for(ctx, inputs[0], inputs[1]))  # what may overlap it
        try:
            results = verify_task_step(ctx, task)
        finally:
            ctx.speed.task_verified()
        ctx.checkpoint("verification_completed", {"results": [r.status for r in results]}, task.id)
        status = TaskStatus.COMPLETED if all(r.status == "PASS" for r in results) else (
            TaskStatus.TIMED_OUT if any(r.timed_out for r in results) else TaskStatus.FAILED)
        if status != TaskStatus.COMPLETED and ctx.repair:
            status, results = repair_task(ctx, task, results)
    record_task(ctx, task, status, error=results[-1].diagnostics.get("summary", "") if results else "")
    ctx.events.emit("build", status.value, agent="orchestrator", task_id=task.id)
    ctx.say(task_status_line(task, status, results))
    return status


def build_stage(ctx: RunContext) -> Done:
    """Run every ready task in id order until the DAG is done; failed tasks block dependents."""
    dag = DagEngine(ctx.state.plan.tasks)
    ctx.state.status = RunStatus.BUILDING
    ctx.save()
    _block(ctx, dag)
    ctx.speed.build_started(ctx)  # the worker memoizes the later tasks' files while the first runs
    while ready := dag.ready(ctx.state.task_results):
        ctx.check_minutes()
        run_task(ctx, ready[0])
        _block(ctx, dag)
    done = sum(1 for s in ctx.state.task_results.values() if s == TaskStatus.COMPLETED)
    return Done(f"{done}/{len(ctx.state.task_results)} tasks completed")


def _block(ctx: RunContext, dag: DagEngine) -> None:
    for tid in dag.to_block(ctx.state.task_results):
        ctx.state.task_results[tid] = TaskStatus.BLOCKED
        ctx.events.emit("build", "BLOCKED", agent="orchestrator", task_id=tid,
                        error="a dependency failed")
        ctx.say(f"  {tid} BLOCKED   (a dependency failed)")
    ctx.save()
