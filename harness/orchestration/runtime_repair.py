"""A failed runtime check is repaired like a failed test (#50: it used to be final).

The failure becomes a VerificationResult of the command "runtime check" (the failed checks with
their details, the server log) and goes through the same repair attempt as a test failure
(orchestration/repair.py `_attempt`: the strategy's files, earlier tasks' files the server's
traceback names reopened, the same repair agent), charged to the same per-task attempt counter
(MAX_REPAIR_ATTEMPTS) and the same loop threshold. After a patch the task's own tests run again
(a test failure there goes through the ordinary repair loop), then the workspace suite and the
runtime check. Which task: the one whose file the server's traceback names, else the last task
implementing a failed probe's requirement, else the task that owns the entry (src/main.py).
"""

from __future__ import annotations

import re
from collections import Counter

from harness.models.enums import FailureType, TaskStatus
from harness.models.results import RuntimeResult, VerificationResult
from harness.models.tasks import Task
from harness.orchestration.context import RunContext

RUNTIME_COMMAND = "runtime check"
NOT_REPAIRABLE = (FailureType.ENVIRONMENT_ERROR, FailureType.UNSUPPORTED)
_VOLATILE = re.compile(r"/[A-Za-z0-9_-]{5,}\b|\d+ ms|\[\d+ ms\]|\b\d{3,}\b")


def runtime_failure(task: Task, runtime: RuntimeResult) -> VerificationResult:
    """The runtime check's failure as a test-like result for the repair agent."""
    failed = [c for c in runtime.checks if not c.ok]
    lines = [f"FAILED {c.name}: {c.detail}" for c in failed if c.name != "server log"]
    log = next((c.detail for c in failed if c.name == "server log"), "")
    summary = lines[0][7:] if lines else (runtime.hint or "the runtime check failed")
    return VerificationResult(
        task_id=task.id, status="FAIL", command=RUNTIME_COMMAND, exit_code=1,
        stdout="The harness started the app and sent the plan's probes; these checks failed:\n" + "\n".join(lines)
               + "\n\nRequests and answers, in order:\n" + "\n".join(runtime.evidence[-12:]),
        stderr=log, failure_type=_kind(runtime, bool(lines)),
        diagnostics={"summary": summary[:300], "hint": runtime.hint})


def _kind(runtime: RuntimeResult, probe_failed: bool) -> FailureType:
    kind = runtime.failure_type
    if kind in (None, FailureType.UNKNOWN):
        return FailureType.TEST_FAILURE if probe_failed else FailureType.CODE_ERROR
    return kind


def runtime_signature(runtime: RuntimeResult) -> str:
    """The failed checks without the values that change every run (codes, ports, durations)."""
    return "; ".join(f"{c.name}: {_VOLATILE.sub('~', c.detail)[:200]}" for c in runtime.checks if not c.ok)


def task_for(ctx: RunContext, runtime: RuntimeResult) -> Task | None:
    from harness.utils.workspace_layout import workspace_files
    from harness.verification.classifier import locate

    plan = ctx.state.plan
    if plan is None:
        return None
    log = next((c.detail for c in runtime.checks if c.name == "server log" and not c.ok), "")
    cause = locate("", log, workspace_files(ctx.workspace)).get("file") if log else None
    owners = [t for t in plan.tasks if cause and cause in t.files_touched]
    if owners and ctx.state.task_results.get(owners[-1].id) == TaskStatus.COMPLETED:
        return owners[-1]
    failed = {c.name.removeprefix("round trip: ") for c in runtime.checks if not c.ok}
    reqs = {p.requirement for p in plan.probes if p.name in failed and p.requirement}
    implementing = [t for t in plan.tasks if reqs & set(t.requirements)]
    if implementing:
        return implementing[-1]
    return next((t for t in reversed(plan.tasks) if "src/main.py" in t.files_touched), None)


def repair_runtime(ctx: RunContext, runtime: RuntimeResult) -> RuntimeResult:
    """Repair attempts until the runtime check passes or a bound is reached; the last check."""
    from harness.agents.repair_agent import NoOpRepairAgent, RepairAgent
    from harness.orchestration.repair import LOOP_THRESHOLD, MAX_REPAIR_ATTEMPTS, _attempt, repair_task
    from harness.orchestration.steps import record_task, runtime_line, runtime_step, verify_task_step, \
        verify_workspace_step

    agent = NoOpRepairAgent(ctx.llm) if ctx.no_op_repair else RepairAgent(ctx.llm)
    seen: Counter = Counter()
    log: list[dict] = []
    while runtime.status == "FAIL":
        task = task_for(ctx, runtime)
        failing = runtime_failure(task, runtime) if task is not None else None
        sig = runtime_signature(runtime)
        seen[sig] += 1
        used = ctx.state.repair_attempts.get(task.id, 0) if task is not None else MAX_REPAIR_ATTEMPTS
        reason = ("no task owns the failing code" if task is None else
                  f"{failing.failure_type.value} is not repaired by changing code" if failing.failure_type in NOT_REPAIRABLE
                  else f"LOOP DETECTED: the same runtime failure seen {seen[sig]} times" if seen[sig] >= LOOP_THRESHOLD
                  else f"repair attempts exhausted ({used}/{MAX_REPAIR_ATTEMPTS})" if used >= MAX_REPAIR_ATTEMPTS
                  else "")
        if reason:
            ctx.events.emit("repair", "runtime_not_repaired", agent="repair_agent", task_id=task.id if task else "",
                            error=reason)
            ctx.say(f"    runtime failure not repaired: {reason}")
            return runtime
        attempt = used + 1
        ctx.state.repair_attempts[task.id] = attempt
        ctx.checkpoint("repair_started", {"attempt": attempt, "failure_type": failing.failure_type.value,
                                          "signature": sig[:64], "runtime": True}, task.id)
        entry = {"attempt": attempt, "failure_type": failing.failure_type.value, "command": RUNTIME_COMMAND}
        entry.update(_attempt(ctx, agent, task, failing, failing.failure_type, log))
        log.append(entry)
        changed = ", ".join(entry.get("files_changed") or []) or "no file changed"
        ctx.events.emit("repair", f"attempt {attempt}/{MAX_REPAIR_ATTEMPTS}", agent="repair_agent", task_id=task.id,
                        tool=entry.get("source", ""), error=f"runtime {failing.failure_type.value}: "
                        f"{failing.diagnostics['summary'][:200]} -> {changed}", attempt=attempt,
                        failure_type=failing.failure_type.value, files_changed=entry.get("files_changed", []),
                        runtime=True)
        ctx.say(f"    repair {task.id} attempt {attempt}/{MAX_REPAIR_ATTEMPTS}: runtime "
                f"{failing.failure_type.value} ({entry.get('source', '')}) -> {changed}")
        if not entry.get("files_changed"):
            continue   # the same failure again: counted, bounded by the loop threshold and the attempts
        results = verify_task_step(ctx, task, attempt=attempt)
        status = TaskStatus.COMPLETED
        if any(r.status == "FAIL" for r in results):
            status, results = repair_task(ctx, task, results)
        record_task(ctx, task, status, repaired="runtime")
        if status != TaskStatus.COMPLETED:
            return runtime
        suite = verify_workspace_step(ctx)
        ctx.say(f"    re-verify {task.id}: PASS; workspace suite → exit_code {suite.exit_code}")
        runtime = runtime_step(ctx)
        ctx.say(f"    {runtime_line(runtime, duration=True)}")
    if log:
        ctx.events.emit("repair", "runtime_repaired", agent="repair_agent", task_id=task.id,
                        attempts=[e["attempt"] for e in log])
    return runtime
