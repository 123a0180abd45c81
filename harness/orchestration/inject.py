"""Fault injection (Gate 2 as a user runs it): break a file, then verify -> repair -> re-verify."""

from __future__ import annotations

from collections.abc import Callable

from harness.errors import InputError, RunDataError
from harness.models.enums import RunStatus, TaskStatus
from harness.orchestration.context import RunContext
from harness.orchestration.dag import DagEngine
from harness.orchestration.repair import localize, missing_files, repair_task
from harness.orchestration.reverify import reverify_tasks
from harness.orchestration.steps import record_task, verify_task_step
from harness.orchestration.pipeline import advance
from harness.providers.base import LLMProvider
from harness.sandbox.local import LocalSandbox
from harness.state.store import RunStore

FAULTS = {
    "syntax-error": lambda text: text + "\ndef broken(:\n    pass\n",
    "name-error": lambda text: text + "\nundefined_name_injected_by_harness()\n",
    "empty": lambda text: "",
}


def inject_fault(workspace, rel: str, fault: str) -> None:
    """Apply `fault` to workspace/rel through the sandbox (path-jailed)."""
    box = LocalSandbox(workspace)
    if not box.exists(rel):
        raise InputError(f"{rel} does not exist in the workspace")
    if fault == "delete":
        box.delete_file(rel)
    else:
        box.write_file(rel, FAULTS[fault](box.read_file(rel)))


def inject_and_repair(store: RunStore, run_id: str, fault: str, rel: str, llm: LLMProvider, *,
                      no_op_repair: bool = False, say: Callable[[str], None] = print) -> RunContext:
    """Copy the run to `<run_id>-inject-N` (the user's run is never changed), inject into the copy,
    localize to the owning task, re-verify it with repair, then VERIFY + AUDIT + REVIEW again (the
    audit of an unchanged workspace is the copied one: nothing runs)."""
    from harness.audit.run import AuditBudget
    from harness.state.run_copy import copy_run

    with store.lock(run_id):
        state = store.load(run_id)
        if state.plan is None or state.status not in (RunStatus.PASS, RunStatus.FAIL):
            raise RunDataError(f"run {run_id} is not finished; inject works on a finished run")
        owner = next((t for t in state.plan.tasks if rel in t.files_touched), None)
        if owner is None:
            owned = sorted({f for t in state.plan.tasks for f in t.files_touched if f.endswith(".py")})
            shown = ", ".join(owned[:12]) + (", …" if len(owned) > 12 else "")
            raise InputError(f"no task of run {run_id} owns {rel}; files its tasks own: {shown}")
    copy_id = copy_run(store, run_id, "inject")
    say(f"inject works on a copy of run {run_id}: run {copy_id} ({store.run_dir(copy_id)})")
    with store.lock(copy_id):
        state = store.load(copy_id)
        owner = next(t for t in state.plan.tasks if t.id == owner.id)
        audit = AuditBudget() if state.options.audit else None
        ctx = RunContext(store=store, state=state, llm=llm, say=say, no_op_repair=no_op_repair, audit=audit,
                         audit_off="the run was started with --no-audit")
        ctx.events.emit("inject", "copied", agent="cli", tool=run_id)
        inject_fault(ctx.workspace, rel, fault)
        ctx.events.emit("inject", fault, agent="cli", task_id=owner.id, tool=rel)
        say(f"injected {fault} into {rel}; owner {owner.id}; re-verifying")
        results = verify_task_step(ctx, owner, attempt=ctx.state.repair_attempts.get(owner.id, 0))
        failing = next((r for r in results if r.status == "FAIL"), None)
        if failing:
            where = localize(owner, failing, missing_files(ctx, owner))
            say(f"  detected FAIL: {failing.failure_type.value if failing.failure_type else 'UNKNOWN'} "
                f"in {where['file'] or '?'} (line {where['line'] or '?'}) -> {owner.id}")
            status, results = repair_task(ctx, owner, results)
        else:
            status = TaskStatus.COMPLETED
        say(f"  {owner.id} {status.value}")
        record_task(ctx, owner, status, error="repair escalated")
        if status == TaskStatus.COMPLETED:
            for line in reverify_tasks(ctx):  # dependents an earlier escalation BLOCKED
                say(f"  {line}")
        else:
            for tid in DagEngine(state.plan.tasks).dependents(owner.id):
                ctx.state.task_results[tid] = TaskStatus.BLOCKED
                ctx.events.emit("build", "BLOCKED", agent="orchestrator", task_id=tid, error=f"{owner.id} FAILED")
                say(f"  {tid} BLOCKED   ({owner.id} FAILED)")
        ctx.state.status = RunStatus.VERIFYING
        ctx.state.review = None
        ctx.save()
        advance(ctx)
        ctx.save()
    return ctx
