"""`builder new`, `resume` and `inject`: commands that drive the pipeline and end with its verdict."""

from __future__ import annotations

import json
import sys

from harness.commands.base import (Command, budget_options, printer, provider_for, run_id_options,
                                   runs_dir_option, store_for)
from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, EXIT_TEMPFAIL, HarnessError, SpecError
from harness.state.store import RunStore


def finish(args, ctx) -> int:
    from harness.orchestration.pipeline import summary_text

    state = ctx.state
    ok = state.review is not None and state.review.overall_status == "PASS"
    say = printer(args)
    if state.review is not None:
        say("")
        say(summary_text(ctx))
    path = ctx.store.run_dir(state.run_id)
    from harness.cli_style import colour_enabled, paint_status

    verdict = "BUILD COMPLETE" if ok else "BUILD FAILED"
    stream = sys.stderr if getattr(args, "json", False) else sys.stdout
    line = paint_status(verdict, verdict, colour_enabled(stream)) + f"  run {state.run_id}  {path}"
    if getattr(args, "json", False):
        print(json.dumps(_result_json(ctx, ok), indent=2))
    elif args.quiet:
        print(line)
    else:
        if ok:
            say(f"run it: `builder serve {state.run_id}` serves the app exactly as it was judged")
        say("")
        say(line)
        if not ok:
            for line in unsupported_lines(ctx):
                say(line)
            say(f"next: `builder status {state.run_id}` shows what is missing; `builder logs {state.run_id}` the events")
            _say_draft(say, ctx.store, state.run_id)
    return EXIT_OK if ok else EXIT_BUILD_FAILED


def _say_draft(say, store, run_id: str) -> None:
    """The last line of a BUILD FAILED: the run's draft spec and how to build it once edited."""
    from harness.offline.accounting.run_draft import draft_path, next_step_line

    if draft_path(store, run_id).is_file():
        say(next_step_line(store, run_id))


def unsupported_lines(ctx) -> list[str]:
    """The honest note for requirements the offline generator cannot build; the asks a spec file
    declared in its own `not_built` list are named as such (no provider hint for those)."""
    from harness.offline.spec_file import DECLARED_NOT_BUILT

    spec = ctx.state.spec
    bad = [r for r in (spec.requirements if spec else []) if r.capability == "unsupported"]
    if not bad or ctx.llm.is_live:
        return []
    declared = {rid for c in spec.clauses if c.reason == DECLARED_NOT_BUILT for rid in c.reqs}
    lines = []
    own = [r for r in bad if r.id in declared]
    if own:
        lines += ["declared not built by the spec file's not_built list: "
                  + ", ".join(f"{r.id} ({r.text})" for r in own),
                  "the build fails on these until the app does them; delete a line from not_built to drop that ask"]
    rest = [r for r in bad if r.id not in declared]
    if rest:
        lines += ["not implemented offline: " + ", ".join(f"{r.id} ({r.text})" for r in rest),
                  "the offline generator builds CRUD apps (entities, auth, dashboard, pages); an LLM provider is "
                  "needed for these: set OPENAI_API_KEY (and OPENAI_BASE_URL for a local server) and run again"]
    return lines


def _result_json(ctx, ok: bool) -> dict:
    st = ctx.state
    return {"run_id": st.run_id, "status": "BUILD COMPLETE" if ok else "BUILD FAILED",
            "run_status": st.status.value, "path": str(ctx.store.run_dir(st.run_id)),
            "tasks": {k: v.value for k, v in st.task_results.items()},
            "requirements": [{"id": r.id, "status": r.status, "missing": r.missing}
                             for r in (st.review.requirements if st.review else [])],
            "runtime": st.runtime.status if st.runtime else None, "error": st.error or None,
            "unsupported": unsupported_lines(ctx)}


def _tempfail_hint(exc: HarnessError) -> int:
    """Exit 75 (budget exceeded / endpoint unavailable) names the saved run and how to continue it."""
    run_id = getattr(exc, "run_id", None)
    if exc.exit_code != EXIT_TEMPFAIL or not run_id:
        raise exc
    sys.stderr.write(f"builder: {exc}\nbuilder: run {run_id} is saved; `builder resume {run_id}` continues it "
                     f"(with a larger --max-llm-calls/--max-tokens/--max-minutes if a budget was exceeded)\n")
    return EXIT_TEMPFAIL


def _session(args, store: RunStore, run_id: str):
    from harness.run_session import run_session

    stream = sys.stderr if getattr(args, "json", False) else sys.stdout
    return run_session(store, run_id, printer(args), quiet=bool(getattr(args, "quiet", False)), stream=stream)


def _audit(args):
    """The build's bounded mutation audit, None with --no-audit."""
    from harness.audit.run import AuditBudget

    return None if getattr(args, "no_audit", False) else AuditBudget()


def cmd_new(args) -> int:
    from harness.orchestration.run_create import create_new_run
    from harness.speed.door import new_run_created
    from harness.utils.ids import new_run_id

    spec, request = _spec_for_args(args)  # InputError (exit 2) on a bad file
    _speed_switch(args)
    store = store_for(args)
    run_id = new_run_id() if args.run_id is None else args.run_id  # known up front: progress follows it, an interrupt names it
    try:
        with _session(args, store, run_id) as say:
            llm = provider_for(args)
            # The run exists, and its worker starts, before the pipeline's imports (~1-1.5 s loaded).
            state = create_new_run(store, request, llm, run_id=run_id, repair=not args.no_repair,
                                   audited=not getattr(args, "no_audit", False))
            new_run_created(store, run_id, audited=state.options.audit)
            from harness.orchestration.pipeline import new_run

            ctx = new_run(store, request, llm, run_id=run_id, say=say,
                          repair=not args.no_repair, spec=spec, audit=_audit(args), state=state)
    except SpecError as exc:   # nothing buildable was asked: no empty app is built
        return _spec_stage_failed(args, store, run_id, exc)
    except HarnessError as exc:
        return _tempfail_hint(exc)
    return finish(args, ctx)


def _spec_for_args(args):
    """(spec, request): the spec file's module (and its imports) only when a file is given or
    nothing is (its spec_for_args says what is wrong); a plain request is taken as it is."""
    if args.spec or not args.request:
        from harness.offline.spec_file import spec_for_args

        return spec_for_args(args.request, args.spec)
    return None, args.request


def _spec_stage_failed(args, store: RunStore, run_id: str, exc: SpecError) -> int:
    """BUILD FAILED at the spec stage: the reason, every clause as read, and the draft to edit."""
    from harness.offline.accounting.run_draft import draft_path, failure_clauses, next_step_line

    reason = str(exc).split(". Clauses:")[0]
    clauses = failure_clauses(exc)
    has_draft = draft_path(store, run_id).is_file()
    if args.json:
        print(json.dumps({"run_id": run_id, "status": "BUILD FAILED", "stage": "spec", "error": reason,
                          "path": str(store.run_dir(run_id)),
                          "clauses": [c.model_dump() for c in clauses],
                          "draft": str(draft_path(store, run_id)) if has_draft else None}, indent=2))
        return EXIT_BUILD_FAILED
    print(f"BUILD FAILED at the spec stage  run {run_id}: {reason}")
    for c in clauses:
        words = f': not understood: {", ".join(repr(w) for w in c.unaccounted)}' if c.unaccounted else ""
        print(f'  {c.id} "{c.text}" ({c.status}{words})')
    if "not_built" in str(exc):
        print("the offline generator builds CRUD apps (entities, fields, auth, dashboard, pages); an LLM "
              "provider is needed for the rest: set OPENAI_API_KEY (and OPENAI_BASE_URL) and run again")
    if has_draft:
        print(next_step_line(store, run_id))
    return EXIT_BUILD_FAILED


def cmd_resume(args) -> int:
    from harness.orchestration.pipeline import resume_run

    from harness.trace.authorship import require_sandbox_for_run

    store = store_for(args)
    _speed_switch(args)
    try:
        store.checked(args.run_id)   # an unknown or damaged run: its own error, before the consent rule
        require_sandbox_for_run(store.run_dir(args.run_id))
        with _session(args, store, args.run_id) as say:
            ctx = resume_run(store, args.run_id, provider_for(args), say=say, audit=_audit(args))
    except HarnessError as exc:
        return _tempfail_hint(exc)
    return finish(args, ctx)


def _speed_switch(args) -> None:
    """--no-speed: the plain pipeline, as HARNESS_SPEED=0 (harness/utils/speed_switch.py)."""
    if getattr(args, "no_speed", False):
        from harness.utils.speed_switch import turn_off

        turn_off()


def cmd_inject(args) -> int:
    from harness.orchestration.inject import inject_and_repair

    args.quiet = False
    args.json = False
    ctx = inject_and_repair(store_for(args), args.run_id, args.fault, args.file, provider_for(args),
                            no_op_repair=args.no_op_repair, say=printer(args))
    return finish(args, ctx)


def _new_arguments(p) -> None:
    p.add_argument("request", nargs="?", default=None, help="what to build, in plain words")
    p.add_argument("--spec", metavar="APP.toml", default=None,
                   help="build exactly the AppSpec in this TOML file instead of a request (examples/club_bookings.toml)")

    runs_dir_option(p)
    p.add_argument("--run-id", default=None, help="name the run (e.g. demo_todo) instead of run_XXXXXXXX")
    p.add_argument("--quiet", action="store_true", help="print only the final status line")
    p.add_argument("--json", action="store_true", help="print the final result as JSON on stdout")
    p.add_argument("--no-repair", action="store_true", help="do not attempt repairs of failed tasks")
    p.add_argument("--no-audit", action="store_true", help="skip the bounded mutation audit before review")
    p.add_argument("--no-speed", action="store_true",
                   help="turn every acceleration path off (as HARNESS_SPEED=0): cold sessions, nothing started ahead")
    budget_options(p)


def _resume_arguments(p) -> None:
    run_id_options(p)
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-audit", action="store_true", help="skip the mutation audit if it is still to run")
    p.add_argument("--no-speed", action="store_true",
                   help="turn every acceleration path off (as HARNESS_SPEED=0): cold sessions, nothing started ahead")
    budget_options(p)


def _inject_arguments(p) -> None:
    p.add_argument("run_id")
    p.add_argument("fault", choices=["syntax-error", "name-error", "delete", "empty"])
    p.add_argument("--file", default="src/main.py", help="workspace file to break (default src/main.py)")
    p.add_argument("--no-op-repair", action="store_true", help="repair that changes nothing (proves loop detection)")
    runs_dir_option(p)


NEW = Command("new", "build an app from a request (SPEC -> PLAN -> BUILD -> VERIFY -> AUDIT -> REVIEW)",
              _new_arguments, cmd_new)
RESUME = Command("resume", "continue an interrupted run from its checkpoints", _resume_arguments, cmd_resume)
INJECT = Command("inject", "inject a fault into a finished run and run verify -> repair -> review",
                 _inject_arguments, cmd_inject)
