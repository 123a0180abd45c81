"""`pytest --harness-run <id>`: re-verify a stored workspace in fresh subprocesses, then re-review.

Re-verification executes; it never answers from what an earlier run stored. Every time, whatever
changed or did not (files, the clock, TZ, an installed dependency, a data file, code in a folder
the evidence snapshot skips): every task whose files are present and whose dependencies completed
re-runs its own verification commands (nothing carried from earlier documents), the whole suite
runs with every test executed, and the runtime check starts the app and probes it. Task statuses,
the matrix and the review then read only what ran here. Every pytest run happens in a subprocess
whose cwd and rootdir are the run's workspace, so two runs with identical module names
(`src.main`) never share imports.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, RunDataError, no_spec_error
from harness.models.enums import RunStatus, TaskStatus
from harness.models.results import VerificationResult
from harness.models.tasks import Task
from harness.orchestration.context import RunContext
from harness.orchestration.steps import (record_task, runtime_line, runtime_step, verify_task_step,
                                         verify_workspace_step)
from harness.providers.mock import MockProvider
from harness.sandbox.runner import sweep_leftovers
from harness.state.store import RunStore
from harness.trace.matrix import format_matrix
from harness.trace.authorship import require_sandbox_for_run
from harness.trace.review_stage import review_run

AGENT = "pytest --harness-run"


def tasks_to_reverify(ctx: RunContext) -> list[Task]:
    """Every task that can be verified now: its files are all present and its dependencies are
    completed (a task BLOCKED by a failed dependency stays BLOCKED). Decided in plan order as the
    re-verification goes, see `reverify_tasks`."""
    return [task for task in (ctx.state.plan.tasks if ctx.state.plan else []) if _can_verify(ctx, task)]


def _can_verify(ctx: RunContext, task: Task) -> bool:
    results = ctx.state.task_results
    if results.get(task.id, TaskStatus.PENDING) == TaskStatus.PENDING:
        return False   # never built: nothing of it to re-verify
    ready = all(results.get(dep) == TaskStatus.COMPLETED for dep in task.depends_on)
    return ready and all((ctx.workspace / rel).is_file() for rel in task.files_touched)


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
        if not _can_verify(ctx, task):   # decided now: a dependency re-verified above may (un)block it
            if ctx.state.task_results.get(task.id) == TaskStatus.COMPLETED:
                record_task(ctx, task, TaskStatus.FAILED, reverified=True,
                            error="re-verification: a file or a completed dependency is missing")
                lines.append(f"re-verified {task.id}: {ctx.state.task_results[task.id].value} "
                             "(a file or a completed dependency is missing)")
            continue
        results = verify_task_step(ctx, task, attempt=ctx.state.repair_attempts.get(task.id, 0), carry=False)
        ok = all(r.status == "PASS" for r in results)
        record_task(ctx, task, TaskStatus.COMPLETED if ok else TaskStatus.FAILED,
                    error="re-verification failed", reverified=True)
        lines.append(f"re-verified {task.id}: {ctx.state.task_results[task.id].value} "
                     + ", ".join(result_line(r) for r in results))
    return lines


def needs_reaudit(ctx: RunContext) -> bool:
    """An audited run is audited again on the evidence just written: stored mutant outcomes are not
    evidence of these bytes (a run never audited, or whose suite now fails, keeps its verdict rule)."""
    evidence = ctx.store.read_workspace_evidence(ctx.run_id)
    return ctx.store.read_audit(ctx.run_id) is not None and bool(evidence and evidence.get("complete"))


def reaudit(ctx: RunContext) -> list[str]:
    """The re-audit of an audited run (`needs_reaudit`, decided before the runtime check): the one
    the speed door started beside the runtime check, else one run now."""
    from harness.audit.run import audit_run

    started = ctx.speed.take_audit(ctx)
    if started is not None and started.error is not None:
        raise started.error
    doc = started.doc if started is not None and started.doc is not None else \
        audit_run(ctx.store, ctx.state, say=lambda line: None, runner=ctx.speed.runner())
    reqs = doc["requirements"].values()
    killed, judged = sum(r["killed"] for r in reqs), sum(r["mutants"] for r in reqs)
    return [f"mutation audit re-run: {killed}/{judged} mutants killed"]


def reverify_run(run_id: str, runs_dir: Path, say: Callable[[str], None] = print) -> int:
    """Re-run every task's verification, the whole suite and the runtime check; refresh evidence,
    matrix and review from what ran now.

    Returns 0 only when the review's verdict is PASS (the CI gate).
    """
    store = RunStore(runs_dir)
    with store.lock(run_id):
        state = store.checked(run_id)
        require_sandbox_for_run(store.run_dir(run_id))
        if state.spec is None:
            raise no_spec_error(run_id, state.status == RunStatus.FAIL, state.error)
        workspace = store.workspace(run_id)
        sweep_leftovers(workspace)  # a killed builder's server or tests must not answer for this run
        if not workspace.is_dir():
            raise RunDataError(f"{workspace}: the run's workspace is missing")
        # No model is needed: re-verification only runs commands and the rule-based review.
        ctx = RunContext(store=store, state=state, llm=MockProvider(), say=say)
        try:
            task_lines = reverify_tasks(ctx)
            ctx.speed.before_suite(ctx)    # the runtime server's imports overlap the whole suite
            result = verify_workspace_step(ctx, agent=AGENT)
            audit_again = needs_reaudit(ctx)
            if audit_again:
                ctx.speed.reaudit_beside_runtime(ctx)   # the re-audit overlaps the runtime check
            task_lines.append(runtime_line(runtime_step(ctx, agent=AGENT)))
            task_lines += reaudit(ctx) if audit_again else []
            matrix, report = review_run(store, state)
            if state.status in (RunStatus.PASS, RunStatus.FAIL):
                state.status = RunStatus.PASS if report.overall_status == "PASS" else RunStatus.FAIL
            store.save(state)
            ctx.events.emit("review", report.overall_status, agent=AGENT)
        finally:
            ctx.speed.cancel(ctx)  # the --harness-run's worker, server and re-audit end with it
    for line in task_lines:
        say(line)
    say(f"harness-run {run_id}: {result_line(result)}")
    ignored = (store.read_workspace_evidence(run_id) or {}).get("ignored_settings")
    if ignored:   # the workspace's own harness_* settings never weaken its judgement (pytest_harness/judged.py)
        say(f"harness-run {run_id}: ignored the workspace's own settings {', '.join(ignored)}")
    say(format_matrix(matrix))
    for r in report.requirements:
        say(f"{r.id}: {r.status}" + (f" — {'; '.join(r.missing)}" if r.missing else ""))
    verified = report.overall_status == "PASS"
    say(f"HARNESS RUN {'PASS' if verified else 'FAIL'}: {matrix.passed}/{matrix.total} requirements")
    return EXIT_OK if verified else EXIT_BUILD_FAILED
