"""Subcommands of `builder`: each a small run(args) -> exit code calling library code."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, EXIT_TEMPFAIL, HarnessError, InputError
from harness.models.enums import RunStatus
from harness.state.store import RunStore


def store_for(args) -> RunStore:
    return RunStore(Path(args.runs_dir or os.environ.get("HARNESS_RUNS_DIR") or "runs"))


def provider_for(args):
    from harness.providers import get_provider
    from harness.providers.budget import Budget, MeteredProvider

    return MeteredProvider(get_provider(), Budget.from_args(args))


def _printer(args):
    if getattr(args, "quiet", False):
        return lambda line: None
    stream = sys.stderr if getattr(args, "json", False) else sys.stdout
    return lambda line: print(line, file=stream, flush=True)


def _finish(args, ctx) -> int:
    from harness.orchestration.pipeline import summary_text

    state = ctx.state
    ok = state.review is not None and state.review.overall_status == "PASS"
    say = _printer(args)
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
        say("")
        say(line)
        if not ok:
            for line in unsupported_lines(ctx):
                say(line)
            say(f"next: `builder status {state.run_id}` shows what is missing; `builder logs {state.run_id}` the events")
    return EXIT_OK if ok else EXIT_BUILD_FAILED


def unsupported_lines(ctx) -> list[str]:
    """The honest note for requirements the offline generator cannot build."""
    spec = ctx.state.spec
    bad = [r for r in (spec.requirements if spec else []) if r.capability == "unsupported"]
    if not bad or ctx.llm.is_live:
        return []
    names = ", ".join(f"{r.id} ({r.text})" for r in bad)
    return [f"not implemented offline: {names}",
            "the offline generator builds CRUD apps (entities, auth, dashboard, pages); an LLM provider is "
            "needed for these: set OPENAI_API_KEY (and OPENAI_BASE_URL for a local server) and run again"]


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
    return run_session(store, run_id, _printer(args), quiet=bool(getattr(args, "quiet", False)), stream=stream)


def cmd_new(args) -> int:
    from harness.offline.spec_file import spec_for_args
    from harness.orchestration.pipeline import new_run
    from harness.utils.ids import new_run_id

    spec, request = spec_for_args(args.request, args.spec)  # InputError (exit 2) on a bad file
    store = store_for(args)
    run_id = new_run_id() if args.run_id is None else args.run_id  # known up front: progress follows it, an interrupt names it
    try:
        with _session(args, store, run_id) as say:
            ctx = new_run(store, request, provider_for(args), run_id=run_id, say=say,
                          repair=not args.no_repair, spec=spec)
    except HarnessError as exc:
        return _tempfail_hint(exc)
    return _finish(args, ctx)


def cmd_resume(args) -> int:
    from harness.orchestration.pipeline import resume_run

    store = store_for(args)
    try:
        with _session(args, store, args.run_id) as say:
            ctx = resume_run(store, args.run_id, provider_for(args), say=say)
    except HarnessError as exc:
        return _tempfail_hint(exc)
    return _finish(args, ctx)


def cmd_inject(args) -> int:
    from harness.orchestration.inject import inject_and_repair

    args.quiet = False
    args.json = False
    ctx = inject_and_repair(store_for(args), args.run_id, args.fault, args.file, provider_for(args),
                            no_op_repair=args.no_op_repair, say=_printer(args))
    return _finish(args, ctx)


def cmd_review(args) -> int:
    from harness.trace.review_stage import format_summary, review_run

    store = store_for(args)
    with store.lock(args.run_id):
        state = store.checked(args.run_id)
        _require_spec(state)
        _, report = review_run(store, state)
        if state.status in (RunStatus.PASS, RunStatus.FAIL):  # an interrupted run stays resumable
            state.status = RunStatus.PASS if report.overall_status == "PASS" else RunStatus.FAIL
        store.save(state)
        store.events(state).emit("review", report.overall_status, agent="reviewer", tool="builder review")
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(format_summary(report))
        print(f"\nREVIEW {report.overall_status}  run {state.run_id}")
    return EXIT_OK if report.overall_status == "PASS" else EXIT_BUILD_FAILED


def cmd_trace(args) -> int:
    from harness.trace.matrix import format_matrix
    from harness.trace.review_stage import judge
    from harness.trace.verdict import gate

    if not 0 <= args.fail_under <= 100:
        raise InputError("--fail-under must be between 0 and 100")
    store = store_for(args)
    state = store.checked(args.run_id)
    _require_spec(state)
    matrix, report = judge(store, state)
    store.write_artifact(state.run_id, "matrix", matrix)
    if args.json:
        print(json.dumps(matrix.model_dump(mode="json"), indent=2))
    else:
        print(format_matrix(matrix))
    ok = gate(report, matrix, args.fail_under)
    if not ok and not args.json:
        print(f"GATE FAILED: {matrix.coverage_pct}% < {args.fail_under}%" if matrix.coverage_pct < args.fail_under
              else "GATE FAILED: evidence problems")
    return EXIT_OK if ok else EXIT_BUILD_FAILED


def _require_spec(state) -> None:
    from harness.errors import RunDataError

    if state.spec is None:
        raise RunDataError(f"run {state.run_id} has no spec yet; `builder resume {state.run_id}` continues it")


def dispatch(args) -> int:
    from harness import commands_report, commands_view

    table = {"new": cmd_new, "resume": cmd_resume, "inject": cmd_inject, "review": cmd_review,
             "trace": cmd_trace, "logs": commands_view.cmd_logs, "status": commands_view.cmd_status,
             "runs": commands_view.cmd_runs, "bench": commands_view.cmd_bench,
             "report": commands_report.cmd_report}
    return table[args.command](args)
