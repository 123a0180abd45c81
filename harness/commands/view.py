"""Read-only views of runs: `builder logs`, `status` and `runs`."""

from __future__ import annotations

import sys
import time

from harness import views_json
from harness.cli_style import colour_enabled, paint_status
from harness.commands.base import Command, run_id_options, runs_dir_option, store_for
from harness.errors import EXIT_OK, InputError
from harness.models.enums import RunStatus, TaskStatus
from harness.utils.events import read_events

FOLLOW_POLL_S = 0.5


def format_event(e: dict, colour: bool = False) -> str:
    """One readable line: time, stage, task, status, duration, error."""
    ts = (e.get("timestamp") or "")[11:23]
    dur = f"{e['duration_ms']}ms" if e.get("duration_ms") is not None else ""
    tok = f" tokens={e['tokens']}" if e.get("tokens") is not None else ""
    err = f"  ! {e['error'][:160]}" if e.get("error") else ""
    status = paint_status(f"{e.get('status', ''):<18}", e.get("status", ""), colour)
    return f"{ts}  {e.get('stage', ''):<8} {e.get('task_id') or '-':<9} {status} {dur:>8}{tok}{err}"


def _event_printer(args):
    if getattr(args, "json", False):
        return views_json.event_line
    colour = colour_enabled(sys.stdout)
    return lambda e: format_event(e, colour)


def _matches(e: dict, args) -> bool:
    return (not args.stage or e.get("stage") == args.stage) and (not args.task or e.get("task_id") == args.task)


def cmd_logs(args) -> int:
    store = store_for(args)
    state = store.load(args.run_id)
    path = store.events_path(state.run_id)
    everything = read_events(path)
    _check_filters(args, state, everything)
    events = [e for e in everything if _matches(e, args)]
    if args.tail is not None:
        if args.tail < 0:
            raise InputError(f"--tail {args.tail}: give a number of events, 0 or more")
        events = events[-args.tail:] if args.tail else []
    show = _event_printer(args)
    for e in events:
        print(show(e), flush=True)
    for report in store.failure_reports(state.run_id):
        if not args.json and (not args.task or report.stem == args.task):
            print(f"failure report: {report}")
    if args.follow:
        try:
            _follow(path, args, seen=len(everything), show=show)
        except KeyboardInterrupt:  # Ctrl+C is the normal way to stop following
            pass
    return EXIT_OK


def _check_filters(args, state, events: list[dict]) -> None:
    """An unknown --stage or --task is a usage error naming what exists, not an empty listing."""
    stages = list(dict.fromkeys(e.get("stage") for e in events if e.get("stage")))
    if args.stage and args.stage not in stages and not args.follow:
        raise InputError(f"--stage {args.stage}: run {state.run_id} has no events of that stage; "
                         f"its stages: {', '.join(stages) or 'none yet'}")
    tasks = [t.id for t in state.plan.tasks] if state.plan else []
    if args.task and args.task not in tasks and not any(e.get("task_id") == args.task for e in events):
        raise InputError(f"--task {args.task}: run {state.run_id} has no such task; "
                         f"its tasks: {', '.join(tasks) or 'none'}")


def _follow(path, args, seen: int, show=format_event) -> None:
    """Print events appended after the first `seen` ones, polling until interrupted."""
    while True:
        time.sleep(FOLLOW_POLL_S)
        now = read_events(path)
        for e in now[seen:]:
            if _matches(e, args):
                print(show(e), flush=True)
        seen = len(now)


def next_step(store, state, shown=None) -> str:
    """The one thing to do next; paths are the store's, so they follow --runs-dir."""
    rid = state.run_id
    if shown is not None and shown.stored_differs:
        from harness.trace.shown_verdict import next_step_line

        return next_step_line(rid)
    if state.status == RunStatus.PASS:
        return f"done: the app is in {store.workspace(rid)}; `builder trace {rid}` gates CI on coverage"
    if state.status not in (RunStatus.PASS, RunStatus.FAIL):
        return f"the run was interrupted: `builder resume {rid}`"
    from harness.offline.accounting.run_draft import draft_path, next_step_line

    if state.spec is None and draft_path(store, rid).is_file():
        return "nothing was built; " + next_step_line(store, rid)
    if state.spec is None:   # BUILD FAILED at the spec stage: nothing was built, nothing to review
        return ("nothing was built: the request asked for nothing the offline generator builds (see error above); "
                "name what the app manages, or set OPENAI_API_KEY, and run `builder new` again")
    unbuilt = [r.id for r in state.spec.requirements if r.capability == "unsupported"]
    if unbuilt and draft_path(store, rid).is_file():   # words nothing realised: finish the draft (#48)
        return f"{', '.join(unbuilt)} not built offline; " + next_step_line(store, rid)
    failed = [t for t, s in state.task_results.items() if s in (TaskStatus.FAILED, TaskStatus.TIMED_OUT)]
    if failed:
        return (f"fix {failed[0]} (see {store.failure_report(rid, failed[0])} and `builder logs {rid} --task "
                f"{failed[0]}`), then `builder review {rid}`")
    return f"read the Missing lines above, fix the workspace, then `builder review {rid}`"


def cmd_status(args) -> int:
    store = store_for(args)
    state = store.checked(args.run_id)
    from harness.offline.accounting.show import clause_lines, run_clauses
    from harness.trace.shown_verdict import shown_verdict

    shown = shown_verdict(store, state)   # a stored PASS is shown only when judging now confirms it

    clauses = run_clauses(store, state)
    if getattr(args, "json", False):
        from harness.trace.authorship import authorship
        from harness.utils.events import read_events

        who = authorship(read_events(store.run_dir(state.run_id) / "events.log"))
        doc = views_json.status_document(state, next_step(store, state, shown), who, shown)
        doc["clauses"] = [c.model_dump(mode="json") for c in clauses]
        print(views_json.dumps(doc))
        return EXIT_OK
    c = colour_enabled(sys.stdout)
    print(f"run {state.run_id}  status {paint_status(shown.status, shown.status, c)}  "
          f"updated {state.updated_at}")
    if shown.stored_differs:
        print(f"stored status {state.status.value}; {shown.reason}")
    print(f"request: {state.user_request[:200]}")
    if state.error:
        print(f"error: {state.error}")
    if state.llm_calls:
        print(f"llm: {state.llm_calls} calls, {state.llm_tokens} tokens")
        from harness.trace.authorship import authorship, authorship_lines
        from harness.utils.events import read_events

        for line in authorship_lines(authorship(read_events(store.run_dir(state.run_id) / "events.log"))):
            print(line)
    if state.plan:
        print("tasks:")
        for t in state.plan.tasks:
            s = state.task_results.get(t.id, TaskStatus.PENDING)
            rep = state.repair_attempts.get(t.id, 0)
            print(f"  {t.id} {paint_status(f'{s.value:<9}', s.value, c)} {t.description[:70]}"
                  + (f"  (repairs: {rep})" if rep else ""))
    reqs = shown.requirements or (state.review.requirements if state.review else [])
    if reqs:
        print("requirements:")
        for r in reqs:
            print(f"  {r.id} {paint_status(f'{r.status:<4}', r.status, c)} {r.text[:60]}"
                  + (f"  missing: {r.missing[0]}" if r.missing else ""))
    if state.runtime:
        print(f"runtime: {state.runtime.status}")
    if state.review and state.review.coverage:
        from harness.trace.coverage import format_coverage

        print(format_coverage(state.review.coverage))
    if clauses:
        print(f"clauses ({len(clauses)}):")
        print("\n".join(clause_lines(clauses)))
    print(f"next step: {next_step(store, state, shown)}")
    return EXIT_OK


def cmd_runs(args) -> int:
    store = store_for(args)
    runs = [_judged_row(store, r) for r in store.list_runs()]
    if getattr(args, "json", False):
        print(views_json.dumps(runs))
        return EXIT_OK
    c = colour_enabled(sys.stdout)
    if not runs:
        print("no runs yet: `builder new \"a todo app\"` starts one")
    for r in runs:
        status = paint_status(f"{r['status']:<11}", r["status"], c)
        print(f"{r['run_id']:<20} {status} {' '.join(r['request'].split())[:70]}")  # one row per run
    return EXIT_OK


def _judged_row(store, row: dict) -> dict:
    """A `builder runs` row whose stored PASS is re-judged: validated like `status` (CORRUPT when the
    run's files contradict each other) and shown PASS only when judging it now confirms it."""
    if row["status"] != RunStatus.PASS.value:
        return row
    from harness.errors import RunDataError
    from harness.trace.shown_verdict import shown_verdict

    try:
        shown = shown_verdict(store, store.checked(row["run_id"]))
    except RunDataError as exc:
        return {**row, "status": "CORRUPT", "request": str(exc)}
    return {**row, "status": shown.status, **({"reason": shown.reason} if shown.reason else {})}


def _logs_arguments(p) -> None:
    run_id_options(p)
    p.add_argument("--follow", "-f", action="store_true", help="keep printing new events")
    p.add_argument("--stage", default=None)
    p.add_argument("--task", default=None)
    p.add_argument("--tail", type=int, default=None, help="only the last N events")
    p.add_argument("--json", action="store_true", help="one JSON event per line (as stored in events.log)")


def _status_arguments(p) -> None:
    run_id_options(p)
    p.add_argument("--json", action="store_true", help="print the status as one JSON document")


def _runs_arguments(p) -> None:
    runs_dir_option(p)
    p.add_argument("--json", action="store_true", help="print the runs as a JSON list")


LOGS = Command("logs", "readable events of a run", _logs_arguments, cmd_logs)
STATUS = Command("status", "handoff view: run, tasks, requirements, next step", _status_arguments, cmd_status)
RUNS = Command("runs", "list runs with status and request", _runs_arguments, cmd_runs)
