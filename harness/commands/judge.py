"""`builder review` and `builder trace`: judge a run from its evidence (the verdict is the reviewer's)."""

from __future__ import annotations

import json

from harness.commands.base import Command, require_spec, run_id_options, store_for
from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, InputError
from harness.models.enums import RunStatus


def cmd_review(args) -> int:
    from harness.trace.review_stage import format_summary, review_run

    store = store_for(args)
    with store.lock(args.run_id):
        state = store.checked(args.run_id)
        require_spec(state)
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
    from harness.trace.coverage import format_coverage, request_coverage
    from harness.trace.matrix import format_matrix
    from harness.trace.review_stage import judge
    from harness.trace.verdict import gate

    if not 0 <= args.fail_under <= 100:
        raise InputError("--fail-under must be between 0 and 100")
    store = store_for(args)
    state = store.checked(args.run_id)
    require_spec(state)
    matrix, report = judge(store, state)
    store.write_artifact(state.run_id, "matrix", matrix)
    cov = request_coverage(state.spec, matrix)
    if args.json:
        print(json.dumps({**matrix.model_dump(mode="json"), "request_coverage": cov}, indent=2))
    else:
        print(format_matrix(matrix))
        print(format_coverage(cov))
    ok = gate(report, matrix, args.fail_under) and cov["pct"] >= args.fail_under   # request coverage (#13)
    if not ok and not args.json:
        print(f"GATE FAILED: {matrix.coverage_pct}% < {args.fail_under}%" if matrix.coverage_pct < args.fail_under
              else f"GATE FAILED: request coverage {cov['pct']}% < {args.fail_under}%" if cov["pct"] < args.fail_under
              else "GATE FAILED: evidence problems")
    return EXIT_OK if ok else EXIT_BUILD_FAILED


def _trace_arguments(p) -> None:
    run_id_options(p)
    p.add_argument("--fail-under", type=float, default=100.0, help="minimum %% of PASS requirements (default 100)")
    p.add_argument("--json", action="store_true")


def _review_arguments(p) -> None:
    run_id_options(p)
    p.add_argument("--json", action="store_true")


TRACE = Command("trace", "print the traceability matrix; gate on coverage", _trace_arguments, cmd_trace)
REVIEW = Command("review", "re-review a run from its evidence (recomputes hashes)", _review_arguments, cmd_review)
