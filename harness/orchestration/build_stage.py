"""The sequential build loop: one task at a time, build -> verify -> (repair) -> checkpoint."""

from __future__ import annotations

import time

from harness.agents.builder import Builder
from harness.errors import HarnessError, ProviderConfigError, ProviderUnavailableError, BudgetExceededError
from harness.models.enums import FailureType, RunStatus, TaskStatus
from harness.models.results import VerificationResult
from harness.models.tasks import Task
from harness.orchestration.context import RunContext
from harness.orchestration.dag import DagEngine
from harness.sandbox.local import LocalSandbox
from harness.tools.file_tools import FileTools

_FAILED = {TaskStatus.FAILED, TaskStatus.TIMED_OUT}


def task_status_line(task: Task, status: TaskStatus, results: list[VerificationResult], extra: str = "") -> str:
    ms = sum(r.duration_ms for r in results)
    failed = next((r for r in results if r.status == "FAIL"), None)
    why = f" ({failed.failure_type.value if failed.failure_type else 'FAIL'})" if failed else ""
    return f"  {task.id} {status.value:<9} {task.description[:60]}{why} [{ms} ms]{extra}"


def file_hashes(ctx: RunContext, paths: list[str]) -> dict[str, str]:
    """Hashes of the files that exist, read through the jail (a symlink out of the workspace is not hashed)."""
    box = LocalSandbox(ctx.workspace)
    hashes = {rel: box.hash_file(rel) for rel in paths}
    return {rel: h for rel, h in hashes.items() if h is not None}


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
    except (ProviderConfigError, ProviderUnavailableError, BudgetExceededError):
        raise
    except HarnessError as exc:
        events.emit("build", "failed", agent="builder", task_id=task.id, error=str(exc))
        return False, str(exc), FailureType.CONFIG_ERROR
    events.emit("build", "completed", agent="builder", task_id=task.id, tool=outcome.source,
                duration_ms=int((time.monotonic() - started) * 1000), files=outcome.written)
    return True, "", None


def verify(ctx: RunContext, task: Task, attempt: int = 0) -> list[VerificationResult]:
    from harness.verification.evidence_inputs import requirement_files
    from harness.verification.verifier import verify_task

    reqs = [r.id for r in ctx.state.spec.requirements]
    batch = max((r.batch for r in ctx.state.verification_results), default=0) + 1
    results = verify_task(task, ctx.workspace, evidence_dir=ctx.store.evidence_dir(ctx.run_id), reqs=reqs,
                          run_id=ctx.run_id, attempt=attempt, tag=f"b{batch:03d}",
                          req_files=requirement_files(ctx.state.spec, ctx.state.plan.tasks))
    ctx.record_verification(results)
    for r in results:
        ctx.events.emit("verify", r.status, agent="verifier", task_id=task.id, tool=r.command,
                        duration_ms=r.duration_ms, error="" if r.status == "PASS" else (
                            f"{r.failure_type.value if r.failure_type else 'FAIL'}: exit {r.exit_code}; "
                            + (r.diagnostics.get("summary") or "")), diagnostics=r.diagnostics or None)
    return results


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
        results = verify(ctx, task)
        ctx.checkpoint("verification_completed", {"results": [r.status for r in results]}, task.id)
        status = TaskStatus.COMPLETED if all(r.status == "PASS" for r in results) else (
            TaskStatus.TIMED_OUT if any(r.timed_out for r in results) else TaskStatus.FAILED)
        if status != TaskStatus.COMPLETED and ctx.repair:
            from harness.orchestration.repair import repair_task

            status, results = repair_task(ctx, task, results)
    ctx.state.task_results[task.id] = status
    if status == TaskStatus.COMPLETED:
        hashes = file_hashes(ctx, task.files_touched)
        ctx.state.file_hashes[task.id] = hashes
        ctx.checkpoint("task_completed", {"file_hashes": hashes}, task.id)
    else:
        ctx.checkpoint("task_failed", {"error": results[-1].diagnostics.get("summary", "") if results else ""}, task.id)
    ctx.events.emit("build", status.value, agent="orchestrator", task_id=task.id)
    ctx.say(task_status_line(task, status, results))
    return status


def build_stage(ctx: RunContext) -> dict[str, TaskStatus]:
    """Run every ready task in id order until the DAG is done; failed tasks block dependents."""
    dag = DagEngine(ctx.state.plan.tasks)
    ctx.state.status = RunStatus.BUILDING
    ctx.save()
    _block(ctx, dag)
    while ready := dag.ready(ctx.state.task_results):
        run_task(ctx, ready[0])
        _block(ctx, dag)
    return dict(ctx.state.task_results)


def _block(ctx: RunContext, dag: DagEngine) -> None:
    for tid in dag.to_block(ctx.state.task_results):
        ctx.state.task_results[tid] = TaskStatus.BLOCKED
        ctx.events.emit("build", "BLOCKED", agent="orchestrator", task_id=tid,
                        error="a dependency failed")
        ctx.say(f"  {tid} BLOCKED   (a dependency failed)")
    ctx.save()
