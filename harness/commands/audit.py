"""`builder audit <run_id>`: mutation-test a run's requirements and re-judge it."""

from __future__ import annotations

from harness.commands.base import Command, require_spec, run_id_options, store_for
from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, InputError
from harness.models.enums import RunStatus


def budget_from(args):
    """The AuditBudget of --max-mutants / --seconds (InputError for non-positive values)."""
    from harness.audit.run import METHODS, AuditBudget, DEFAULT_MAX_MUTANTS, DEFAULT_SECONDS

    mutants = DEFAULT_MAX_MUTANTS if getattr(args, "max_mutants", None) is None else args.max_mutants
    seconds = DEFAULT_SECONDS if getattr(args, "seconds", None) is None else args.seconds
    if mutants < 1:
        raise InputError("--max-mutants must be at least 1")
    if not seconds > 0:
        raise InputError("--seconds must be positive")
    return AuditBudget(max_mutants=mutants, seconds=seconds, method=getattr(args, "method", None) or METHODS[0])


def cmd_audit(args) -> int:
    from harness.audit.run import audit_run
    from harness.speed.door import Speed
    from harness.trace.authorship import require_sandbox_for_run
    from harness.trace.review_stage import review_run

    budget = budget_from(args)
    store = store_for(args)
    store.checked(args.run_id)  # unknown run -> 4, damaged run -> 3, before anything is written
    require_sandbox_for_run(store.run_dir(args.run_id))
    with store.lock(args.run_id):
        state = store.checked(args.run_id)
        require_spec(state)
        before = state.review.overall_status if state.review else None
        doc = audit_run(store, state, budget, say=print, runner=Speed().runner())
        _, report = review_run(store, state)
        if state.status in (RunStatus.PASS, RunStatus.FAIL):  # an interrupted run stays resumable
            state.status = RunStatus.PASS if report.overall_status == "PASS" else RunStatus.FAIL
        if before is not None and before != report.overall_status:
            store.checkpoint(state, "audit_completed", {"verdict_before": before, "verdict_after": report.overall_status,
                                                        "mutants": sum(r["mutants"] for r in doc["requirements"].values()),
                                                        "killed": sum(r["killed"] for r in doc["requirements"].values())})
        store.save(state)
    verdict, lines = audit_verdict(doc["requirements"])
    for line in lines:
        print(line)
    print(f"AUDIT {verdict}  run {state.run_id}  review {report.overall_status}"
          f"  ({doc['duration_ms'] / 1000:.1f}s, {store.relative(state.run_id, store.artifact_path(state.run_id, 'audit'))})")
    return EXIT_OK if verdict == "PASS" else EXIT_BUILD_FAILED


def audit_verdict(reqs: dict[str, dict]) -> tuple[str, list[str]]:
    """PASS only when some requirement was audited and every audited one met the mutation bar
    (evidence_checks.KILL_RATIO of its judged mutants killed); the lines say why not.

    A requirement the audit could not mutate because it is not verified makes the audit FAIL too:
    nothing vouches for its tests (an audit of a failed run audits nothing and must not say PASS).
    """
    from harness.trace.evidence_checks import mutation_lines

    lines = [f"{rid}: {line}" for rid in reqs for line in mutation_lines({"requirements": reqs}, rid)]
    unverified = [rid for rid, r in reqs.items() if not r["mutants"] and str(r.get("skipped") or "").startswith("not verified")]
    if unverified:
        lines.append(f"not audited (not verified): {', '.join(unverified)}")
    if not any(r["mutants"] or r.get("invalid") for r in reqs.values()):
        lines.append("nothing was audited: no requirement had a mutant to run")
    return ("FAIL" if lines else "PASS"), lines


def _audit_arguments(p) -> None:
    from harness.audit.run import METHODS, DEFAULT_MAX_MUTANTS, DEFAULT_SECONDS

    run_id_options(p)
    p.add_argument("--max-mutants", type=int, default=None,
                   help=f"mutants per requirement (default {DEFAULT_MAX_MUTANTS})")
    p.add_argument("--seconds", type=float, default=None,
                   help=f"time box of each audit lane's mutant runs (default {DEFAULT_SECONDS:g})")
    p.add_argument("--method", choices=METHODS, default=None,
                   help="confirm (default): the mutants first, then only the tests a verdict rests on, on the "
                        "original code; baseline-first: every planned test on the original code first (the "
                        "reference: same verdicts, slower)")


AUDIT = Command("audit", "mutation audit: do each requirement's tests fail when its code is broken?",
                _audit_arguments, cmd_audit)
