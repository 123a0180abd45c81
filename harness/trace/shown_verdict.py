"""The verdict a view shows (`builder status`, `builder runs`, `builder report`): judged now.

state.json's `status` is the word the last stage wrote. A file changed since — by hand, by a tool, a
working app swapped out after its verification — must never be shown as PASS: a view shows PASS only
when the stored status is PASS *and* judging the run now says PASS. "Judging now" is the read-only
judge `builder trace` runs (harness/trace/review_stage.judge): task statuses against their results,
the evidence document against the workspace's current bytes, the runtime check, the audit, the
request's clauses. A stored PASS the judge does not confirm is shown as FAIL with the judge's first
reason; a stored FAIL is shown as FAIL (a view never upgrades a verdict: `builder review` does that,
and writes it). Nothing here writes a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.models.enums import RunStatus


@dataclass(frozen=True)
class ShownVerdict:
    """What a view prints: the status, why it differs from the stored one, and the re-judged rows."""
    status: str
    reason: str = ""
    requirements: list = field(default_factory=list)   # ReviewRequirement rows judged now ([] when not judged)
    matrix: object = None                               # the TraceMatrix judged now (None when not judged)

    @property
    def stored_differs(self) -> bool:
        return bool(self.reason)


def shown_verdict(store, state) -> ShownVerdict:
    """The status to show for a validated run (`store.checked`); re-judges a stored PASS."""
    if state.status != RunStatus.PASS:
        return ShownVerdict(state.status.value)
    if state.spec is None:
        return ShownVerdict("FAIL", "state.json says PASS but the run has no spec")
    from harness.trace.review_stage import judge

    try:
        matrix, report = judge(store, state)
    except (TypeError, AttributeError, KeyError, ValueError, IndexError) as exc:
        # evidence whose shape the judge cannot read can never confirm a PASS (a hand-edited or
        # hostile document: tests/test_report_hostile.py); the view says so instead of crashing
        return ShownVerdict("FAIL", f"stored PASS not confirmed now: the run's evidence is malformed "
                                    f"({type(exc).__name__}: {str(exc)[:80]})")
    if report.overall_status == "PASS":
        return ShownVerdict("PASS", requirements=report.requirements, matrix=matrix)
    return ShownVerdict("FAIL", "stored PASS not confirmed now: " + first_reason(report), report.requirements, matrix)


def first_reason(report) -> str:
    """The first thing the judge found missing (a requirement's, a rule's, or the clause coverage)."""
    for req in report.requirements:
        if req.status != "PASS":
            return f"{req.id} {req.missing[0] if req.missing else 'is not PASS'}"
    for note in report.notes:
        if note.startswith("rule: "):
            return note[len("rule: "):]
    if report.coverage and not report.coverage.get("complete", True):
        return "a clause of the request is not built and verified"
    return "the run does not pass when judged now"


def next_step_line(run_id: str) -> str:
    """The one thing to do when the stored PASS is not confirmed."""
    return (f"the stored PASS is not confirmed by the run's evidence and workspace now: `builder review {run_id}` "
            f"re-judges and records it; `pytest --harness-run {run_id}` re-verifies")
