"""The pipeline: the one loop that owns control flow, from request to review (and resume)."""

from __future__ import annotations

import time
from collections.abc import Callable

from harness.agents.planner import Planner
from harness.agents.reviewer import Reviewer
from harness.audit.run import AuditBudget
from harness.orchestration.audit_stage import audit_intro, audit_stage
from harness.errors import HarnessError
from harness.models.enums import RunStatus, TaskStatus
from harness.models.run import RunState
from harness.models.spec import AppSpec
from harness.orchestration.build_stage import build_stage
from harness.orchestration.context import RunContext
from harness.orchestration.run_create import create_new_run
from harness.orchestration.spec_stage import spec_stage
from harness.orchestration.stage import Done, Stage
from harness.orchestration.steps import runtime_line, runtime_step, verify_workspace_step
from harness.providers.base import LLMProvider, has_model
from harness.providers.budget import Budget
from harness.sandbox import isolation_label
from harness.state.recovery import rebuild_statuses
from harness.state.store import RunStore
from harness.trace.review_stage import format_summary, review_run
from harness.validation.plan_validator import validate_plan

def plan_source_label(source: str, live: bool) -> str:
    """Who made the plan, in words: the rule-based planner is the normal offline path, not an error."""
    if source != "fallback":
        return source
    return "offline planner: the model's plan was unusable" if live else "offline planner"


def plan_stage(ctx: RunContext) -> Done:
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
    ctx.store.write_artifact(ctx.run_id, "tasks", plan)
    ctx.events.emit("plan", "completed", agent="planner", tool=plan.source)
    return Done(f"{len(plan.tasks)} tasks ({plan_source_label(plan.source, has_model(ctx.llm))})", "plan_created",
                {"tasks": [t.id for t in plan.tasks], "source": plan.source})


def verify_stage(ctx: RunContext) -> Done:
    """Whole-suite verification with fresh evidence, then the runtime check."""
    ctx.check_minutes()
    ctx.speed.before_suite(ctx)  # the runtime server's imports overlap the whole suite
    result = verify_workspace_step(ctx)
    ran = f"{result.tests} tests run, none carried" if result.tests is not None else "every test run"
    if ctx.speed.suite_taken_note:
        ran += f"; {ctx.speed.suite_taken_note}"
    ctx.say(f"  workspace suite: {result.command} (runner: {result.runner}; {ran}) → exit_code {result.exit_code} "
            f"[{result.duration_ms} ms]")
    ctx.speed.after_suite(ctx, result.status == "PASS")  # the audit of this evidence overlaps the runtime check
    runtime = runtime_step(ctx)
    ctx.say(f"  {runtime_line(runtime, duration=True)}")
    built = all(s == TaskStatus.COMPLETED for s in ctx.state.task_results.values())
    if runtime.status == "FAIL" and ctx.repair and result.status == "PASS" and built:
        from harness.orchestration.runtime_repair import repair_runtime

        runtime = repair_runtime(ctx, runtime)   # repaired like a test failure, same bounds (#50)
    # runtime_completed makes REVIEW_DONE durable: a resume goes on to REVIEW.
    return Done(f"runtime {runtime.status}", "runtime_completed", {"status": runtime.status})


def review_stage(ctx: RunContext) -> Done:
    matrix, report = review_run(ctx.store, ctx.state, Reviewer(ctx.llm).notes)
    ctx.events.emit("review", report.overall_status, agent="reviewer",
                    error="" if report.overall_status == "PASS" else
                    "; ".join(f"{r.id}: {r.missing[0]}" for r in report.requirements if r.missing)[:1000])
    passed = sum(1 for r in report.requirements if r.status == "PASS")
    return Done(f"{passed}/{len(report.requirements)} requirements PASS, overall {report.overall_status}",
                "review_completed", {"overall_status": report.overall_status, "coverage_pct": matrix.coverage_pct},
                status=RunStatus.PASS if report.overall_status == "PASS" else RunStatus.FAIL)


_S = RunStatus
# The pipeline, in execution order: (label, statuses it resumes from, stage, status it leaves).
STAGES: tuple[Stage, ...] = (
    Stage("SPEC", frozenset({_S.CREATED}), spec_stage, _S.SPEC_DONE),
    Stage("PLAN", frozenset({_S.SPEC_DONE}), plan_stage, _S.PLAN_DONE),
    Stage("BUILD", frozenset({_S.PLAN_DONE, _S.BUILDING, _S.REPAIRING}), build_stage, _S.VERIFYING,
          intro=lambda ctx: f"{len(ctx.state.plan.tasks)} tasks, one at a time (build -> verify -> repair), "
                            f"isolation: {isolation_label()}"),
    Stage("VERIFY", frozenset({_S.VERIFYING}), verify_stage, _S.REVIEW_DONE,
          intro=lambda ctx: f"whole workspace suite with evidence, then runtime check, isolation: {isolation_label()}"),
    Stage("AUDIT", frozenset({_S.REVIEW_DONE}), audit_stage, _S.REVIEW_DONE, intro=audit_intro),
    Stage("REVIEW", frozenset({_S.REVIEW_DONE}), review_stage, None),
)


def run_stage(ctx: RunContext, n: int, stage: Stage) -> None:
    """One stage and its transition: run it, set the status it leaves, make that durable, print its line."""
    started = time.monotonic()
    header = f"[{n}/{len(STAGES)}] {stage.label:<6}"
    if stage.intro:
        ctx.say(f"{header} {stage.intro(ctx)}")
    done = stage.run(ctx)
    ctx.state.status = done.status or stage.leaves
    if done.checkpoint:
        ctx.checkpoint(done.checkpoint, done.payload)
    else:
        ctx.save()
    ms = int((time.monotonic() - started) * 1000)
    ctx.timings[stage.label] = ctx.timings.get(stage.label, 0) + ms
    prefix = " " * 12 if stage.intro else header
    ctx.say(f"{prefix} {done.summary} ({ms / 1000:.1f}s)")
    for note in done.notes:
        ctx.say(f"{' ' * 12} {note}")


def advance(ctx: RunContext, prestart: bool = False) -> RunState:
    """Run, in order, every stage the run's status says is still to do; the one place transitions happen.
    `prestart`: start the run's verification worker in the background before the first stage that
    runs — SPEC for a new run — so its imports overlap SPEC, PLAN and the first generation. A request
    the spec stage turns down stops its worker at once (_drive's `finally`), before it served anything."""
    for n, stage in enumerate(STAGES, start=1):
        if ctx.state.status in stage.resumes_from:
            if prestart:
                ctx.speed.run_started(ctx)  # the worker; stopped in _drive's `finally`
                prestart = False
            run_stage(ctx, n, stage)
    return ctx.state


def new_run(store: RunStore, request: str, llm: LLMProvider, *, run_id: str | None = None,
            say: Callable[[str], None] = print, repair: bool = True,
            spec: AppSpec | None = None, audit: AuditBudget | None = AuditBudget(),
            state: RunState | None = None) -> RunContext:
    """Create a run and take it as far as it goes. HarnessErrors mark the run FAIL and propagate.
    `spec`: a ready spec (from a spec file) used instead of understanding the request; `audit`: the
    bounds of the mutation audit before review (None skips it); `state`: the run already created
    by the caller with the same choices (run_create.create_new_run: `builder new` creates it before
    importing this module, so its worker starts meanwhile)."""
    if state is None:
        state = create_new_run(store, request, llm, run_id=run_id, repair=repair, audited=audit is not None)
    ctx = RunContext(store=store, state=state, llm=llm, say=say, repair=repair, given_spec=spec, audit=audit)

    ctx.store.events(state).emit("run", "created", agent="cli")
    with store.lock(state.run_id):
        _drive(ctx)
    return ctx


def resume_run(store: RunStore, run_id: str, llm: LLMProvider, *, say: Callable[[str], None] = print,
               audit: AuditBudget | None = AuditBudget()) -> RunContext:
    """SPEC M9: validate state.json against the checkpoints, rebuild task statuses, continue.

    A corrupt or contradictory run raises RunDataError before anything is touched (not even the
    lock file); a live writer raises RunLockedError. COMPLETED/FAILED/BLOCKED tasks are kept,
    RUNNING/READY ones go back to PENDING; completed tasks are never rebuilt or re-verified.
    """
    store.ensure_unlocked(run_id)
    store.resume(run_id)  # read-only validation first
    with store.lock(run_id):
        state, latest = store.resume(run_id, finish_pending=True)
        kept = state.options   # the run's own --no-repair/--no-audit and budgets hold on resume too
        if isinstance(getattr(llm, "budget", None), Budget):
            llm.budget.keep(kept.budget)
        audit_off = "--no-audit" if kept.audit else "the run was started with --no-audit"
        if audit is None and kept.audit:   # `resume --no-audit`: the user declines the audit still to run,
            kept.audit = False             # so no judge waits for it (see review_stage.audit_unfinished)
        ctx = RunContext(store=store, state=state, llm=llm, say=say, repair=kept.repair,
                         audit=audit if kept.audit else None, audit_off=audit_off)
        _sweep(ctx)
        if state.status in (RunStatus.PASS, RunStatus.FAIL) and state.review is not None:
            say(f"run {run_id} already finished with {state.status.value}; nothing to resume")
            return ctx
        _check_completed_files(ctx)
        reset = rebuild_statuses(state)
        if state.status == RunStatus.FAIL:  # e.g. a budget or endpoint failure (exit 75)
            state.status = _resume_point(state, latest)
        state.error = ""
        ctx.save()
        where = (f"{latest['seq']:03d}-{latest['event']}" + (f"-{latest['task_id']}" if latest.get("task_id") else "")
                 if latest else "none")
        ctx.events.emit("run", "resumed", agent="cli", checkpoint=where, run_status=state.status.value, reset=reset)
        say(f"resuming run {run_id} at {state.status.value} (last checkpoint {where})"
            + (f"; {', '.join(reset)} interrupted, back to PENDING" if reset else ""))
        _drive(ctx)
    return ctx


def _check_completed_files(ctx: RunContext) -> None:
    """RunDataError naming the first COMPLETED task whose recorded files are gone or were changed.

    Without this, a resume on a deleted workspace rebuilt later tasks on missing files and blamed
    them. A file another task also writes may legitimately differ from the earlier task's record.
    """
    from harness.errors import RunDataError
    from harness.orchestration.steps import file_hashes

    tasks = ctx.state.plan.tasks if ctx.state.plan else []
    writers: dict[str, int] = {}
    for t in tasks:
        for rel in t.files_touched:
            writers[rel] = writers.get(rel, 0) + 1
    for task in tasks:
        if ctx.state.task_results.get(task.id) != TaskStatus.COMPLETED:
            continue
        recorded = ctx.state.file_hashes.get(task.id, {})
        now = file_hashes(ctx, list(recorded))
        gone = [rel for rel in recorded if rel not in now]
        changed = [rel for rel in recorded if rel in now and now[rel] != recorded[rel] and writers.get(rel, 0) == 1]
        if gone or changed:
            what = (f"{', '.join(gone)} missing" if gone else "") + ("; " if gone and changed else "") + (
                f"{', '.join(changed)} changed" if changed else "")
            raise RunDataError(f"{task.id} is COMPLETED but its files no longer match the run ({what} in "
                               f"{ctx.workspace}); restore the workspace or start a new run — nothing was rebuilt")


def _sweep(ctx: RunContext) -> None:
    """Servers and tests a killed builder left running for this run die before anything restarts;
    so does the scratch copy of a killed audit (even on a finished run, which resumes nothing)."""
    from harness.audit.run import clear_stale_scratch
    from harness.sandbox.runner import sweep_leftovers

    killed = sweep_leftovers(ctx.workspace)
    if killed:
        ctx.events.emit("run", "swept", agent="cli", error=f"killed {len(killed)} leftover process(es)",
                        pids=killed)
        ctx.say(f"killed {len(killed)} process(es) left running by an interrupted builder")
    if clear_stale_scratch(ctx.store, ctx.run_id, ctx.speed.runner()):
        ctx.events.emit("run", "swept", agent="cli", error="removed the audit workspace of an interrupted audit")
        ctx.say("removed the audit workspace an interrupted audit left behind")


def _resume_point(state: RunState, latest: dict | None) -> RunStatus:
    if state.spec is None:
        return RunStatus.CREATED
    if state.plan is None:
        return RunStatus.SPEC_DONE
    if latest and latest["event"] in ("runtime_completed", "audit_completed"):
        return RunStatus.REVIEW_DONE
    return RunStatus.BUILDING


def _drive(ctx: RunContext) -> None:
    from harness.interrupts import INTERRUPTS, kill_children

    try:
        advance(ctx, prestart=True)
    except INTERRUPTS:  # Ctrl+C/SIGTERM: the run's processes die now, so the teardown below never waits
        kill_children()
        raise
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
        ctx.speed.cancel(ctx)  # everything speed started for the run ends with it (harness/speed/door.py)


def summary_text(ctx: RunContext) -> str:
    from harness.trace.authorship import authorship, authorship_lines
    from harness.utils.events import read_events

    if not ctx.state.review:
        return ""
    who = authorship_lines(authorship(read_events(ctx.run_dir / "events.log")))
    return format_summary(ctx.state.review) + ("\n\n" + "\n".join(who) if who else "")

