"""The verdict, decided once: a requirement PASSes iff nothing is missing; a run iff all do.

Every judge — the pipeline's review stage, `builder review`, `builder trace`, `pytest
--harness-run`, the benchmark and the end-of-run summary — gets its PASS/FAIL from here (through
review.json or the matrix), never by re-deriving it.
"""

from __future__ import annotations

from harness.models.results import ReviewReport, ReviewRequirement
from harness.models.trace import TraceMatrix, Verdict


def row_status(missing: list[str]) -> Verdict:
    """A requirement's verdict from its matrix row: PASS only when no proof is missing."""
    return "FAIL" if missing else "PASS"


def decide(matrix: TraceMatrix, runtime_status: str | None = None) -> ReviewReport:
    """PASS per requirement iff its row is PASS; overall PASS iff all are, nothing is wrong and the
    runtime check (when it ran) passed."""
    reqs = [ReviewRequirement(id=row.id, status=row.status, evidence=row.evidence, missing=row.missing,
                              text=row.text, implemented=row.implemented, tested=row.tested,
                              runtime=row.runtime, black_box=row.black_box) for row in matrix.requirements]
    runtime_bad = runtime_status is not None and runtime_status != "PASS"
    overall_ok = bool(reqs) and all(r.status == "PASS" for r in reqs) and not matrix.problems and not runtime_bad
    notes = [f"rule: {p}" for p in matrix.problems]
    if runtime_bad:
        notes.append(f"rule: runtime verification {runtime_status}")
    return ReviewReport(requirements=reqs, overall_status="PASS" if overall_ok else "FAIL", notes=notes)


def gate(report: ReviewReport, matrix: TraceMatrix, fail_under: float = 100.0) -> bool:
    """`builder trace --fail-under PCT`: at 100 exactly the review's verdict; below it, PCT% of the
    requirements PASS and no evidence problem."""
    if fail_under >= 100:
        return report.overall_status == "PASS"
    return matrix.coverage_pct >= fail_under and not matrix.problems
