"""The pipeline's AUDIT stage: between VERIFY (+ runtime) and REVIEW, resumable.

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


def audit_stage(ctx) -> Done:
    """Audit within ctx.audit's bounds."""
    if ctx.audit is None:
        return Done("skipped")
    if not needs_audit(ctx):
        return Done("already audited" if ctx.store.read_audit(ctx.run_id) else "nothing to audit (no complete evidence)")
    doc = audit_run(ctx.store, ctx.state, ctx.audit, say=ctx.say)
    reqs = doc["requirements"].values()
    killed, judged = sum(r["killed"] for r in reqs), sum(r["mutants"] for r in reqs)
    blind = sorted(rid for rid, r in doc["requirements"].items() if r["mutants"] and not r["killed"])
    ctx.subprocess_ms += doc["duration_ms"]
    return Done(f"{killed}/{judged} mutants killed" + (f"; none killed for {', '.join(blind)}" if blind else ""),
                "audit_completed", {"mutants": judged, "killed": killed, "requirements_not_killing": blind})
