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

from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, RunDataError
from harness.models.enums import TaskStatus
from harness.models.tasks import Task
from harness.state.store import RunStore
from harness.state.layout import WORKSPACE_EVIDENCE
from harness.trace.matrix import stale_files
from harness.utils.workspace_layout import role


def tasks_to_reverify(ctx) -> list[Task]:
    """Completed tasks whose implementation changed since verification; unfinished tasks with all files."""
    from harness.orchestration.build_stage import file_hashes

    out = []
    for task in ctx.state.plan.tasks if ctx.state.plan else []:
        status = ctx.state.task_results.get(task.id, TaskStatus.PENDING)
        present = all((ctx.workspace / rel).is_file() for rel in task.files_touched)
        if status == TaskStatus.COMPLETED:
            impl = [rel for rel in task.files_touched if role(rel) != "test"]
            recorded = ctx.state.file_hashes.get(task.id, {})
            if file_hashes(ctx, impl) != {rel: recorded[rel] for rel in impl if rel in recorded}:
                out.append(task)
        elif status in (TaskStatus.FAILED, TaskStatus.TIMED_OUT, TaskStatus.BLOCKED) and present:
            out.append(task)
    return out


def reverify_tasks(ctx) -> list[str]:
    """Re-run the verification of `tasks_to_reverify`; one readable line per task."""
    from harness.orchestration.build_stage import file_hashes, verify

    lines = []
    for task in tasks_to_reverify(ctx):
        results = verify(ctx, task, attempt=ctx.state.repair_attempts.get(task.id, 0))
        ok = all(r.status == "PASS" for r in results)
        ctx.state.task_results[task.id] = TaskStatus.COMPLETED if ok else TaskStatus.FAILED
        if ok:
            ctx.state.file_hashes[task.id] = file_hashes(ctx, task.files_touched)
            ctx.checkpoint("task_completed", {"file_hashes": ctx.state.file_hashes[task.id],
                                              "reverified": True}, task.id)
        else:
            ctx.checkpoint("task_failed", {"error": "re-verification failed", "reverified": True}, task.id)
        lines.append(f"re-verified {task.id}: {ctx.state.task_results[task.id].value} "
                     + ", ".join(f"{r.command} → exit_code {r.exit_code}" for r in results))
    return lines


def refresh_runtime(ctx) -> str:
    """Re-run the runtime check (the workspace changed or it had not passed); one readable line."""
    from harness.errors import HarnessError
    from harness.offline.generator import round_trip_steps
    from harness.verification.runtime import verify_runtime

    try:
        steps = round_trip_steps(ctx.state.spec)
    except HarnessError:
        steps = []
    tasks = ctx.state.plan.tasks if ctx.state.plan else []
    owner = next((t.id for t in tasks if "src/main.py" in t.files_touched), "")
    runtime = verify_runtime(ctx.workspace, steps=steps, task_hint=owner)
    ctx.state.runtime = runtime
    ctx.store.write_artifact(ctx.run_id, "runtime", runtime)
    ctx.events.emit("runtime", runtime.status, agent="pytest --harness-run", tool="uvicorn",
                    duration_ms=runtime.duration_ms, error=runtime.hint if runtime.status != "PASS" else "")
    ok = sum(1 for c in runtime.checks if c.ok)
    hint = f" — {runtime.hint}" if runtime.hint else ""
    return f"runtime: {runtime.status} ({ok}/{len(runtime.checks)} checks){hint}"


def reverify_run(run_id: str, runs_dir: Path, say: Callable[[str], None] = print) -> int:
    """Re-verify changed/unfinished tasks and the whole suite, refresh evidence, matrix and review.

    Returns 0 only when every requirement of the run's spec is PASS (the CI gate).
    """
    from harness.models.enums import RunStatus
    from harness.orchestration.context import RunContext
    from harness.providers.mock import MockProvider
    from harness.trace.matrix import format_matrix
    from harness.trace.review_stage import review_run
    from harness.verification.evidence_inputs import requirement_files
    from harness.verification.verifier import verify_workspace

    store = RunStore(runs_dir)
    with store.lock(run_id):
        state = store.checked(run_id)
        if state.spec is None:
            raise RunDataError(f"run {run_id} has no spec; nothing to verify")
        workspace = store.workspace(run_id)
        from harness.sandbox.runner import sweep_leftovers

        sweep_leftovers(workspace)  # a killed builder's server or tests must not answer for this run
        if not workspace.is_dir():
            raise RunDataError(f"{workspace}: the run's workspace is missing")
        # No model is needed: re-verification only runs commands and the rule-based review.
        ctx = RunContext(store=store, state=state, llm=MockProvider(), say=say)
        changed = any(role(rel) != "test" for rel in stale_files(store.read_workspace_evidence(run_id), workspace))
        task_lines = reverify_tasks(ctx)
        reqs = [r.id for r in state.spec.requirements]
        result = verify_workspace(workspace, evidence_path=store.workspace_evidence(run_id),
                                  reqs=reqs, run_id=run_id, evidence_rel=WORKSPACE_EVIDENCE,
                                  req_files=requirement_files(state.spec, state.plan.tasks if state.plan else []))
        ctx.record_verification([result])
        runtime = state.runtime
        if runtime is not None and (changed or task_lines or runtime.status != "PASS"):
            task_lines.append(refresh_runtime(ctx))
        matrix, report = review_run(store, state)
        if state.status in (RunStatus.PASS, RunStatus.FAIL):
            state.status = RunStatus.PASS if report.overall_status == "PASS" else RunStatus.FAIL
        store.save(state)
        ctx.events.emit("verify", result.status, agent="pytest --harness-run", tool=result.command,
                        duration_ms=result.duration_ms)
        ctx.events.emit("review", report.overall_status, agent="pytest --harness-run")
    for line in task_lines:
        say(line)
    say(f"harness-run {run_id}: {result.command} → exit_code {result.exit_code}")
    say(format_matrix(matrix))
    for r in report.requirements:
        say(f"{r.id}: {r.status}" + (f" — {'; '.join(r.missing)}" if r.missing else ""))
    verified = report.overall_status == "PASS"
    say(f"HARNESS RUN {'PASS' if verified else 'FAIL'}: {matrix.passed}/{matrix.total} requirements")
    return EXIT_OK if verified else EXIT_BUILD_FAILED
