"""The steps every entry point shares: verify a task, verify the workspace, check the runtime, and
record a task's outcome (status + hashes + checkpoint). The pipeline, repair, `builder inject`
and `pytest --harness-run` all call these, so each is written once.
"""

from __future__ import annotations

from harness.models.enums import TaskStatus
from harness.models.results import RuntimeResult, VerificationResult
from harness.models.tasks import Task
from harness.orchestration.context import RunContext
from harness.state.layout import WORKSPACE_EVIDENCE
from harness.sandbox.local import LocalSandbox


def file_hashes(ctx: RunContext, paths: list[str]) -> dict[str, str]:
    """Hashes of the files that exist, read through the jail (a symlink out of the workspace is not hashed)."""
    box = LocalSandbox(ctx.workspace)
    hashes = {rel: box.hash_file(rel) for rel in paths}
    return {rel: h for rel, h in hashes.items() if h is not None}


def _error(r: VerificationResult) -> str:
    if r.status == "PASS":
        return ""
    kind = r.failure_type.value if r.failure_type else "FAIL"
    return f"{kind}: exit {r.exit_code}; " + (r.diagnostics.get("summary") or "")


def verify_task_step(ctx: RunContext, task: Task, attempt: int = 0, carry: bool = True) -> list[VerificationResult]:
    """Run the task's verification commands with fresh evidence; record and log every result.
    `carry`: a whole-suite command may carry passing tests from the run's earlier task documents
    (a per-task session only: the final whole suite carries nothing and re-checks them all)."""
    from harness.verification.evidence_inputs import requirement_files
    from harness.verification.verifier import verify_task

    reqs = [r.id for r in ctx.state.spec.requirements]
    batch = max((r.batch for r in ctx.state.verification_results), default=0) + 1
    watched = ctx.speed.watch_task_suite(ctx, task)  # the last task's whole suite: VERIFY may adopt it
    results = verify_task(task, ctx.workspace, evidence_dir=ctx.store.evidence_dir(ctx.run_id), reqs=reqs,
                          run_id=ctx.run_id, attempt=attempt, tag=f"b{batch:03d}",
                          req_files=requirement_files(ctx.state.spec, ctx.state.plan.tasks),
                          carry=ctx.speed.carry(ctx, task) if carry else None, runner=ctx.speed.runner())
    ctx.speed.task_suite_ended(ctx, watched, results)
    ctx.record_verification(results)
    for r in results:
        ctx.events.emit("verify", r.status, agent="verifier", task_id=task.id, tool=r.command,
                        duration_ms=r.duration_ms, error=_error(r), diagnostics=r.diagnostics or None)
    return results


def verify_workspace_step(ctx: RunContext, agent: str = "verifier") -> VerificationResult:
    """The whole suite once, every test executed in this session (nothing carried, nothing reused
    from an earlier run), writing the workspace evidence the matrix reads; recorded and logged."""
    from harness.verification.evidence_inputs import requirement_files
    from harness.verification.verifier import verify_workspace

    result = ctx.speed.take_suite(ctx)  # the last task's own whole suite, or the same session started beside
    # it, if it passed on these bytes (harness/speed/task_suite.py, suite_ahead.py)
    if result is None:
        reqs = [r.id for r in ctx.state.spec.requirements]
        req_files = requirement_files(ctx.state.spec, ctx.state.plan.tasks if ctx.state.plan else [])
        result = verify_workspace(ctx.workspace, evidence_path=ctx.store.workspace_evidence(ctx.run_id), reqs=reqs,
                                  run_id=ctx.run_id, evidence_rel=WORKSPACE_EVIDENCE, req_files=req_files,
                                  runner=ctx.speed.runner())
    ctx.record_verification([result])
    if ctx.speed.suite_taken_from:  # it ran in or beside the last task's session, within that time
        ctx.subprocess_ms -= result.duration_ms
    ctx.events.emit("verify", result.status, agent=agent, task_id="", tool=result.command,
                    duration_ms=result.duration_ms, error="" if result.status == "PASS" else
                    f"{result.failure_type.value if result.failure_type else ''}: exit {result.exit_code}")
    return result


def runtime_inputs(ctx: RunContext) -> tuple[list, str, str, str]:
    """(probe steps, where they come from, task hint, declared entry) of the run's runtime check."""
    from harness.verification.probe_plan import runtime_steps

    plan = ctx.state.plan
    hint = next((t.id for t in plan.tasks if "src/main.py" in t.files_touched), "") if plan else ""
    steps, source = runtime_steps(ctx.state.spec, plan)
    return steps, source, hint, plan.entry if plan else ""


def acceptance_for(ctx: RunContext, steps: list, source: str):
    """The black-box leg the runtime check runs while the app is up (harness/acceptance): checks
    derived from the spec, strict when the generator wrote the app (its probes' source)."""
    from harness.acceptance import run_acceptance

    spec = ctx.state.spec
    if spec is None:
        return None
    return lambda base, round_trips: run_acceptance(base, spec, steps, round_trips, strict=source == "generator")


def runtime_step(ctx: RunContext, agent: str = "verifier") -> RuntimeResult:
    """Start the app, probe it (the plan's probes, the generator's, or generic ones), record runtime.json.
    A check the speed door started beside the last task is used instead only when it ran exactly
    these bytes (harness/speed/validity.py)."""
    from harness.verification.runtime import verify_runtime

    steps, source, hint, entry = runtime_inputs(ctx)
    runtime = ctx.speed.take_runtime(ctx)
    if runtime is None:
        runtime = verify_runtime(ctx.workspace, steps=steps, task_hint=hint, entry=entry,
                                 acceptance=acceptance_for(ctx, steps, source),
                                 prepared=ctx.speed.prestarted_server(ctx))
        ctx.subprocess_ms += runtime.duration_ms  # an adopted check ran within the last task's suite time
    runtime.hint = blocked_entry_hint(ctx, runtime, hint) or runtime.hint
    runtime.evidence.insert(0, f"probes: {len(steps)} from the {source}")
    ctx.state.runtime = runtime
    ctx.store.write_artifact(ctx.run_id, "runtime", runtime)
    ctx.events.emit("runtime", runtime.status, agent=agent, tool="uvicorn", duration_ms=runtime.duration_ms,
                    error=runtime.hint if runtime.status != "PASS" else "")
    return runtime


def blocked_entry_hint(ctx: RunContext, runtime: RuntimeResult, entry_task: str) -> str:
    """When the app has no entry point because the task that writes src/main.py was BLOCKED, the
    task(s) that failed first and blocked it ("" otherwise): the requirements all fail for that."""
    results = ctx.state.task_results
    plan = ctx.state.plan
    if not (plan and entry_task and results.get(entry_task) == TaskStatus.BLOCKED
            and any(c.name == "entry point" and not c.ok for c in runtime.checks)):
        return ""
    tasks = {t.id: t for t in plan.tasks}
    causes, todo, seen = [], list(tasks[entry_task].depends_on) if entry_task in tasks else [], set()
    while todo:
        tid = todo.pop(0)
        if tid in seen or tid not in tasks:
            continue
        seen.add(tid)
        if results.get(tid) in (TaskStatus.FAILED, TaskStatus.TIMED_OUT):
            causes.append(f"{tid} {results[tid].value}")
        elif results.get(tid) == TaskStatus.BLOCKED:
            todo += tasks[tid].depends_on
    if not causes:
        return ""
    return (f"src/main.py was not written: {entry_task} (the app's entry point) was BLOCKED by "
            f"{', '.join(causes)}; every requirement fails until that task passes")


def runtime_line(runtime: RuntimeResult, duration: bool = False) -> str:
    """`runtime: PASS (5/5 checks) [812 ms]; black-box: 8/9 checks passed, failed: <name> — hint`:
    one readable line. The black-box tally is part of it: a runtime PASS whose acceptance checks
    failed must not read as a pass (hostile trial A3b)."""
    ok = sum(1 for c in runtime.checks if c.ok)
    took = f" [{runtime.duration_ms} ms]" if duration else ""
    return (f"runtime: {runtime.status} ({ok}/{len(runtime.checks)} checks){took}{_black_box_tally(runtime)}"
            + (f" — {runtime.hint}" if runtime.hint else ""))


def _black_box_tally(runtime: RuntimeResult) -> str:
    checks = [c for c in runtime.acceptance or [] if c.source != "n/a"]
    if not checks:
        return ""
    failed = [c for c in checks if not c.ok]
    tally = f"; black-box: {len(checks) - len(failed)}/{len(checks)} checks passed"
    if failed:
        tally += f", FAILED: {failed[0].requirement} {failed[0].name}" + (f" (+{len(failed) - 1} more)" if len(failed) > 1 else "")
    return tally


def record_task(ctx: RunContext, task: Task, status: TaskStatus, error: str = "", **extra) -> None:
    """Set the task's status in the run and commit task_completed (with file hashes) or task_failed."""
    # Nothing that can fail may sit between the status change and its checkpoint (#16).
    hashes = file_hashes(ctx, task.files_touched) if status == TaskStatus.COMPLETED else {}
    ctx.state.task_results[task.id] = status
    if status == TaskStatus.COMPLETED:
        ctx.state.file_hashes[task.id] = hashes
        ctx.checkpoint("task_completed", {"file_hashes": ctx.state.file_hashes[task.id], **extra}, task.id)
    else:
        ctx.checkpoint("task_failed", {"error": error, **extra}, task.id)
