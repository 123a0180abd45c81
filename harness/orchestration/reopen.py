"""Reopening an earlier task during a repair: when the failure's traceback names a file of an
earlier, completed task, that file becomes editable; afterwards the reopened task and its
built dependents are re-verified. Attempts stay bounded per task, counted across resumes."""

from __future__ import annotations


from harness.models.enums import TaskStatus
from harness.models.results import VerificationResult
from harness.models.tasks import Task
from harness.orchestration.context import RunContext
from harness.utils.workspace_layout import is_test_file
from harness.validation.plan_validator import ancestors

MAX_REOPEN_ATTEMPTS = 3


def reopenable(ctx: RunContext, task: Task, named: list[str]) -> dict[str, str]:
    """{file: owner task id} for the code files in `named` that belong to an earlier, completed
    ancestor of `task` whose repair budget is not used up."""
    plan = ctx.state.plan
    by_id = {t.id: t for t in plan.tasks}
    earlier = ancestors(task.id, by_id)
    out: dict[str, str] = {}
    for rel in named:
        if rel in task.files_touched or is_test_file(rel):
            continue
        owner = next((t for t in plan.tasks if t.id in earlier and rel in t.files_touched), None)
        if owner is None or ctx.state.task_results.get(owner.id) != TaskStatus.COMPLETED:
            continue
        if ctx.state.repair_attempts.get(owner.id, 0) >= MAX_REOPEN_ATTEMPTS:
            continue
        out[rel] = owner.id
    return out


def charge(ctx: RunContext, owners: set[str]) -> None:
    """Count one repair attempt against every reopened task whose files a patch changed."""
    for tid in sorted(owners):
        ctx.state.repair_attempts[tid] = ctx.state.repair_attempts.get(tid, 0) + 1


def reverify_reopened(ctx: RunContext, task: Task, owners: set[str]) -> list[str]:
    """Re-run the verification of the reopened tasks and of their completed dependents (other
    than `task`); record new file hashes or mark them FAILED. One readable line per task."""
    from harness.orchestration.steps import record_task, verify_task_step

    plan = ctx.state.plan
    by_id = {t.id: t for t in plan.tasks}
    again = [t for t in plan.tasks if t.id != task.id and ctx.state.task_results.get(t.id) == TaskStatus.COMPLETED
             and (t.id in owners or owners & ancestors(t.id, by_id))]
    lines = []
    for other in again:
        results: list[VerificationResult] = verify_task_step(ctx, other,
                                                             attempt=ctx.state.repair_attempts.get(other.id, 0))
        ok = all(r.status == "PASS" for r in results)
        record_task(ctx, other, TaskStatus.COMPLETED if ok else TaskStatus.FAILED,
                    error=f"re-verification after the repair of {task.id} failed", reopened_by=task.id)
        ctx.events.emit("repair", "reverified" if ok else "FAILED", agent="repair_agent", task_id=other.id,
                        error="" if ok else f"fails after the repair of {task.id} changed its files",
                        reopened_by=task.id)
        lines.append(f"    re-verified {other.id} (reopened by {task.id}): {'PASS' if ok else 'FAIL'}")
    return lines
