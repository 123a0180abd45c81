"""The pipeline: the one loop that owns control flow, from request to review (and resume)."""

from __future__ import annotations

import time
from collections.abc import Callable

from harness.agents.planner import Planner
from harness.agents.reviewer import Reviewer
from harness.errors import HarnessError
from harness.models.enums import RunStatus, TaskStatus
from harness.models.run import RunState
from harness.orchestration.build_stage import build_stage
from harness.orchestration.context import RunContext
from harness.orchestration.spec_stage import spec_stage
from harness.providers.base import LLMProvider, has_model
from harness.sandbox import isolation_label
from harness.state.recovery import rebuild_statuses
from harness.state.layout import WORKSPACE_EVIDENCE
from harness.state.store import RunStore
from harness.trace.review_stage import format_summary, review_run
from harness.validation.plan_validator import validate_plan

STAGES = ("SPEC", "PLAN", "BUILD", "VERIFY", "REVIEW")


def _ms(start: float) -> int:
    return int((time.monotonic() - start) * 1000)


def plan_stage(ctx: RunContext) -> None:
    planner = Planner(ctx.llm)
    plan = planner.plan(ctx.state.spec)
    errors = validate_plan(plan.tasks, ctx.state.spec)
    if has_model(ctx.llm):  # stated once per run: may unusable model answers fall back to the generator?
        ctx.events.emit("plan", "offline_fallback" if plan.offline_fallback else "no_offline_fallback",
                        agent="planner", tool=plan.source, note=plan.offline_note)
    if errors:
        raise HarnessError("the plan is invalid: " + "; ".join(errors[:3]))
    for w in plan.warnings:
        ctx.events.emit("plan", "warning", agent="planner", error=w)
    ctx.state.plan = plan
    ctx.state.task_results = {t.id: TaskStatus.PENDING for t in plan.tasks}
    ctx.state.status = RunStatus.PLAN_DONE
    ctx.store.write_artifact(ctx.run_id, "tasks", plan)
    ctx.checkpoint("plan_created", {"tasks": [t.id for t in plan.tasks], "source": plan.source})
    ctx.events.emit("plan", "completed", agent="planner", tool=plan.source)


def verify_stage(ctx: RunContext) -> None:
    """Whole-suite verification with fresh evidence, then the runtime check."""
    from harness.verification.probe_plan import runtime_steps
    from harness.verification.runtime import verify_runtime
    from harness.verification.evidence_inputs import requirement_files
    from harness.verification.verifier import verify_workspace

    ctx.state.status = RunStatus.VERIFYING
    reqs = [r.id for r in ctx.state.spec.requirements]
    result = verify_workspace(ctx.workspace, evidence_path=ctx.store.workspace_evidence(ctx.run_id),
                              reqs=reqs, run_id=ctx.run_id, evidence_rel=WORKSPACE_EVIDENCE,
                              req_files=requirement_files(ctx.state.spec, ctx.state.plan.tasks))
    ctx.record_verification([result])
    ctx.events.emit("verify", result.status, agent="verifier", task_id="", tool=result.command,
                    duration_ms=result.duration_ms, error="" if result.status == "PASS" else
                    f"{result.failure_type.value if result.failure_type else ''}: exit {result.exit_code}")
    ctx.say(f"  workspace suite: {result.command} → exit_code {result.exit_code} [{result.duration_ms} ms]")
    hint = next((t.id for t in ctx.state.plan.tasks if "src/main.py" in t.files_touched), "")
    steps, source = runtime_steps(ctx.state.spec, ctx.state.plan)
    runtime = verify_runtime(ctx.workspace, steps=steps, task_hint=hint, entry=ctx.state.plan.entry)
    runtime.evidence.insert(0, f"probes: {len(steps)} from the {source}")
    ctx.subprocess_ms += runtime.duration_ms
    ctx.state.runtime = runtime
    ctx.store.write_artifact(ctx.run_id, "runtime", runtime)
    ctx.state.status = RunStatus.REVIEW_DONE  # durable with the checkpoint: a resume goes on to REVIEW
    ctx.checkpoint("runtime_completed", {"status": runtime.status})
    ctx.events.emit("runtime", runtime.status, agent="verifier", tool="uvicorn", duration_ms=runtime.duration_ms,
                    error=runtime.hint if runtime.status != "PASS" else "")
    ok = sum(1 for c in runtime.checks if c.ok)
    ctx.say(f"  runtime: {runtime.status} ({ok}/{len(runtime.checks)} checks) [{runtime.duration_ms} ms]"
            + (f" — {runtime.hint}" if runtime.hint else ""))


def review_stage(ctx: RunContext) -> None:
    matrix, report = review_run(ctx.store, ctx.state, Reviewer(ctx.llm).notes)
    ctx.state.status = RunStatus.PASS if report.overall_status == "PASS" else RunStatus.FAIL
    ctx.checkpoint("review_completed", {"overall_status": report.overall_status,
                                        "coverage_pct": matrix.coverage_pct})
    ctx.events.emit("review", report.overall_status, agent="reviewer",
                    error="" if report.overall_status == "PASS" else
                    "; ".join(f"{r.id}: {r.missing[0]}" for r in report.requirements if r.missing)[:1000])


def _line(ctx: RunContext, n: int, stage: str, result: str, started: float, header: bool = True) -> None:
    ms = _ms(started)
    ctx.timings[stage] = ctx.timings.get(stage, 0) + ms
    prefix = f"[{n}/5] {stage:<6}" if header else " " * 12
    ctx.say(f"{prefix} {result} ({ms / 1000:.1f}s)")


def advance(ctx: RunContext) -> RunState:
    """Run whatever stages the state has not completed yet; save after every step."""
    st = ctx.state
    provider = f"provider {ctx.llm.name}" + (f" ({ctx.llm.model})" if ctx.llm.is_live else " (offline rules)")
    if st.spec is None:
        t = time.monotonic()
        spec = spec_stage(ctx.store, ctx.run_id, ctx.llm)
        ctx.state = st = ctx.store.load(ctx.run_id)
        _line(ctx, 1, "SPEC", f"{len(spec.requirements)} requirements, {len(spec.data_model)} entities, {provider}", t)
    if st.plan is None:
        t = time.monotonic()
        plan_stage(ctx)
        _line(ctx, 2, "PLAN", f"{len(st.plan.tasks)} tasks ({st.plan.source})", t)
    if st.status in (RunStatus.PLAN_DONE, RunStatus.BUILDING, RunStatus.REPAIRING):
        t = time.monotonic()
        ctx.say(f"[3/5] BUILD  {len(st.plan.tasks)} tasks, one at a time (build -> verify -> repair), "
                f"isolation: {isolation_label()}")
        build_stage(ctx)
        done = sum(1 for s in st.task_results.values() if s == TaskStatus.COMPLETED)
        _line(ctx, 3, "BUILD", f"{done}/{len(st.task_results)} tasks completed", t, header=False)
        st.status = RunStatus.VERIFYING
        ctx.save()
    if st.status == RunStatus.VERIFYING:
        t = time.monotonic()
        ctx.say(f"[4/5] VERIFY whole workspace suite with evidence, then runtime check, isolation: {isolation_label()}")
        verify_stage(ctx)
        _line(ctx, 4, "VERIFY", f"runtime {st.runtime.status}", t, header=False)
        st.status = RunStatus.REVIEW_DONE
        ctx.save()
    if st.status == RunStatus.REVIEW_DONE or st.review is None:
        t = time.monotonic()
        review_stage(ctx)
        passed = sum(1 for r in st.review.requirements if r.status == "PASS")
        _line(ctx, 5, "REVIEW", f"{passed}/{len(st.review.requirements)} requirements PASS, overall {st.review.overall_status}", t)
    return st


def new_run(store: RunStore, request: str, llm: LLMProvider, *, run_id: str | None = None,
            say: Callable[[str], None] = print, repair: bool = True) -> RunContext:
    """Create a run and take it as far as it goes. HarnessErrors mark the run FAIL and propagate."""
    state = store.create_run(request, run_id=run_id)
    ctx = RunContext(store=store, state=state, llm=llm, say=say, repair=repair)
    ctx.store.events(state).emit("run", "created", agent="cli")
    with store.lock(state.run_id):
        _drive(ctx)
    return ctx


def resume_run(store: RunStore, run_id: str, llm: LLMProvider, *, say: Callable[[str], None] = print) -> RunContext:
    """SPEC M9: validate state.json against the checkpoints, rebuild task statuses, continue.

    A corrupt or contradictory run raises RunDataError before anything is touched (not even the
    lock file); a live writer raises RunLockedError. COMPLETED/FAILED/BLOCKED tasks are kept,
    RUNNING/READY ones go back to PENDING; completed tasks are never rebuilt or re-verified.
    """
    store.ensure_unlocked(run_id)
    store.resume(run_id)  # read-only validation first
    with store.lock(run_id):
        state, latest = store.resume(run_id, finish_pending=True)
        ctx = RunContext(store=store, state=state, llm=llm, say=say)
        _sweep(ctx)
        if state.status in (RunStatus.PASS, RunStatus.FAIL) and state.review is not None:
            say(f"run {run_id} already finished with {state.status.value}; nothing to resume")
            return ctx
        reset = rebuild_statuses(state)
        if state.status == RunStatus.FAIL:  # e.g. a budget or endpoint failure (exit 75)
            state.status = _resume_point(state, latest)
        state.error = ""
        ctx.save()  # the spec stage reloads state.json
        where = (f"{latest['seq']:03d}-{latest['event']}" + (f"-{latest['task_id']}" if latest.get("task_id") else "")
                 if latest else "none")
        ctx.events.emit("run", "resumed", agent="cli", checkpoint=where, run_status=state.status.value, reset=reset)
        say(f"resuming run {run_id} at {state.status.value} (last checkpoint {where})"
            + (f"; {', '.join(reset)} interrupted, back to PENDING" if reset else ""))
        _drive(ctx)
    return ctx


def _sweep(ctx: RunContext) -> None:
    """Servers and tests a killed builder left running for this run die before anything restarts."""
    from harness.sandbox.runner import sweep_leftovers

    killed = sweep_leftovers(ctx.workspace)
    if killed:
        ctx.events.emit("run", "swept", agent="cli", error=f"killed {len(killed)} leftover process(es)",
                        pids=killed)
        ctx.say(f"killed {len(killed)} process(es) left running by an interrupted builder")


def _resume_point(state: RunState, latest: dict | None) -> RunStatus:
    if state.spec is None:
        return RunStatus.CREATED
    if state.plan is None:
        return RunStatus.SPEC_DONE
    if latest and latest["event"] == "runtime_completed":
        return RunStatus.REVIEW_DONE
    return RunStatus.BUILDING


def _drive(ctx: RunContext) -> None:
    try:
        advance(ctx)
    except HarnessError as exc:
        # Budget/endpoint failures (exit 75) end FAIL too, but resumable: resume_run restarts from
        # the last completed step, and the error names the budget so the user knows what to raise.
        ctx.state.error = str(exc)
        ctx.state.status = RunStatus.FAIL
        exc.run_id = ctx.run_id
        ctx.events.emit("run", "error", agent="orchestrator", error=str(exc))
        raise
    finally:
        ctx.save()


def summary_text(ctx: RunContext) -> str:
    return format_summary(ctx.state.review) if ctx.state.review else ""

