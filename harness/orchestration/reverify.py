"""`pytest --harness-run <id>`: re-verify a stored workspace in fresh subprocesses, then re-review.

Every pytest run happens in a subprocess whose cwd and rootdir are the run's workspace, so two
runs with identical module names (`src.main`) never share imports. Tasks whose implementation
files changed since they were verified, and FAILED/BLOCKED tasks whose files are all present
again (a human fixed them), re-run their own verification commands; their status follows that
result. Changed test files need no task re-run: the whole suite, which always runs, covers them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, RunDataError, no_spec_error
from harness.models.enums import RunStatus, TaskStatus
from harness.models.results import VerificationResult
from harness.models.tasks import Task
from harness.orchestration.context import RunContext
from harness.orchestration.steps import (file_hashes, record_task, runtime_line, runtime_step,
                                         verify_task_step, verify_workspace_step)
from harness.providers.mock import MockProvider
from harness.sandbox.runner import sweep_leftovers
from harness.state.store import RunStore
from harness.trace.matrix import format_matrix, stale_files
from harness.trace.review_stage import review_run
from harness.utils.workspace_layout import role

AGENT = "pytest --harness-run"


def tasks_to_reverify(ctx: RunContext) -> list[Task]:
    """Completed tasks whose implementation changed since verification; unfinished tasks with all files
    whose dependencies are all completed (a task BLOCKED by a failed dependency stays BLOCKED)."""
    return [task for task in (ctx.state.plan.tasks if ctx.state.plan else []) if _needs_reverify(ctx, task)]


def _needs_reverify(ctx: RunContext, task: Task) -> bool:
    results = ctx.state.task_results
    status = results.get(task.id, TaskStatus.PENDING)
    if status == TaskStatus.COMPLETED:
        impl = [rel for rel in task.files_touched if role(rel) != "test"]
        recorded = ctx.state.file_hashes.get(task.id, {})
        return file_hashes(ctx, impl) != {rel: recorded[rel] for rel in impl if rel in recorded}
    if status in (TaskStatus.FAILED, TaskStatus.TIMED_OUT, TaskStatus.BLOCKED):
        ready = all(results.get(dep) == TaskStatus.COMPLETED for dep in task.depends_on)
        return ready and all((ctx.workspace / rel).is_file() for rel in task.files_touched)
    return False


def result_line(r: VerificationResult) -> str:
    """`command → exit_code N`, plus why it failed when that is not the exit code (e.g. evidence rejected)."""
    from harness.verification.carry_inputs import carry_note

    line = f"{r.command} → exit_code {r.exit_code}{carry_note(r)}"
    if r.status == "FAIL":
        why = r.diagnostics.get("summary") or ("timed out" if r.timed_out else "")
        line += f" — FAIL: {why}" if why else " — FAIL"
    return line


def reverify_tasks(ctx: RunContext) -> list[str]:
    """Re-run the verification of `tasks_to_reverify`; one readable line per task."""
    lines = []
    for task in ctx.state.plan.tasks if ctx.state.plan else []:   # plan order: a dependency first
        if not _needs_reverify(ctx, task):   # decided now: a dependency re-verified above may unblock it
            continue
        results = verify_task_step(ctx, task, attempt=ctx.state.repair_attempts.get(task.id, 0))
        ok = all(r.status == "PASS" for r in results)
        record_task(ctx, task, TaskStatus.COMPLETED if ok else TaskStatus.FAILED,
                    error="re-verification failed", reverified=True)
        lines.append(f"re-verified {task.id}: {ctx.state.task_results[task.id].value} "
                     + ", ".join(result_line(r) for r in results))
    return lines


def reverify_run(run_id: str, runs_dir: Path, say: Callable[[str], None] = print) -> int:
    """Re-verify changed/unfinished tasks and the whole suite, refresh evidence, matrix and review.

    Returns 0 only when the review's verdict is PASS (the CI gate).
    """
    store = RunStore(runs_dir)
    with store.lock(run_id):
        state = store.checked(run_id)
        if state.spec is None:
            raise no_spec_error(run_id, state.status == RunStatus.FAIL, state.error)
        workspace = store.workspace(run_id)
        sweep_leftovers(workspace)  # a killed builder's server or tests must not answer for this run
        if not workspace.is_dir():
            raise RunDataError(f"{workspace}: the run's workspace is missing")
        # No model is needed: re-verification only runs commands and the rule-based review.
        ctx = RunContext(store=store, state=state, llm=MockProvider(), say=say)
        changed = any(role(rel) != "test" for rel in stale_files(store.read_workspace_evidence(run_id), workspace))
        task_lines = reverify_tasks(ctx)
        result = verify_workspace_step(ctx, agent=AGENT)
        runtime = state.runtime
        if runtime is not None and (changed or task_lines or runtime.status != "PASS"):
            task_lines.append(runtime_line(runtime_step(ctx, agent=AGENT)))
        matrix, report = review_run(store, state)
        if state.status in (RunStatus.PASS, RunStatus.FAIL):
            state.status = RunStatus.PASS if report.overall_status == "PASS" else RunStatus.FAIL
        store.save(state)
        ctx.events.emit("review", report.overall_status, agent=AGENT)
    from harness.sandbox.warm import stop_workers

    stop_workers(workspace)  # the --harness-run's warm worker ends with it
    for line in task_lines:
        say(line)
    say(f"harness-run {run_id}: {result_line(result)}")
    say(format_matrix(matrix))
    for r in report.requirements:
        say(f"{r.id}: {r.status}" + (f" — {'; '.join(r.missing)}" if r.missing else ""))
    verified = report.overall_status == "PASS"
    say(f"HARNESS RUN {'PASS' if verified else 'FAIL'}: {matrix.passed}/{matrix.total} requirements")
    return EXIT_OK if verified else EXIT_BUILD_FAILED
