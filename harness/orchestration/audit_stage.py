"""The pipeline's AUDIT stage: between VERIFY (+ runtime) and REVIEW, resumable.

VERIFY starts the audit beside its runtime check once the workspace suite passed
(the speed door's after_suite, harness/speed/audit_ahead.py); this stage then takes that result.

Both AUDIT and REVIEW resume from REVIEW_DONE, AUDIT first. It audits when the run's latest
evidence has no audit yet, so a run killed mid-audit audits again on resume (the scratch copy is
rebuilt; the workspace was never touched); it ends with an `audit_completed` checkpoint. Skipped
(no checkpoint) with --no-audit, when already audited, or without complete evidence.
"""

from __future__ import annotations

from harness.audit.run import audit_run, current_audit
from harness.orchestration.stage import Done


def needs_audit(ctx) -> bool:
    """True when the run's latest evidence is complete and has no audit yet."""
    evidence = ctx.store.read_workspace_evidence(ctx.run_id)
    return bool(evidence and evidence.get("complete")) and current_audit(ctx.store, ctx.run_id, evidence) is None


def audit_intro(ctx) -> str:
    if ctx.audit is None:
        return f"mutation audit skipped ({ctx.audit_off})"
    return (f"mutants of each requirement's executed lines, its tests against each (≤{ctx.audit.max_mutants} "
            f"per requirement, time box {ctx.audit.seconds:g}s)")


def _taken(ctx) -> dict | None:
    """audit.json of the audit started beside the runtime check, when it audited the latest evidence."""
    started = ctx.speed.take_audit(ctx)
    if started is None:
        return None
    if started.error is not None:
        raise started.error
    evidence = ctx.store.read_workspace_evidence(ctx.run_id)
    current = current_audit(ctx.store, ctx.run_id, evidence)
    if started.doc is None or current is None or current.get("evidence_digest") != started.doc["evidence_digest"]:
        return None
    for line in started.lines:
        ctx.say(line)
    return started.doc


def audit_stage(ctx) -> Done:
    """Audit within ctx.audit's bounds (or take the audit VERIFY started beside the runtime check)."""
    if ctx.audit is None:
        return Done("skipped")
    doc = _taken(ctx)
    if doc is None and not needs_audit(ctx):
        return Done("already audited" if ctx.store.read_audit(ctx.run_id) else "nothing to audit (no complete evidence)")
    if doc is None:
        doc = audit_run(ctx.store, ctx.state, ctx.audit, say=ctx.say, runner=ctx.speed.runner(),
                        lanes_ahead=ctx.speed.take_lanes(ctx))
    reqs = doc["requirements"].values()
    killed, judged = sum(r["killed"] for r in reqs), sum(r["mutants"] for r in reqs)
    blind = sorted(rid for rid, r in doc["requirements"].items()
                   if (r["mutants"] or r.get("invalid")) and not r["killed"])   # only invalid ones: no kill either
    ctx.subprocess_ms += doc["duration_ms"]
    return Done(f"{killed}/{judged} mutants killed" + (f"; none killed for {', '.join(blind)}" if blind else ""),
                "audit_completed", {"mutants": judged, "killed": killed, "requirements_not_killing": blind})
