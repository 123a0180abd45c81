"""Reviewer: rule-based PASS/FAIL from the matrix; an LLM may only add notes."""

from __future__ import annotations

import json

from harness.errors import BudgetExceededError, ProviderError
from harness.models.results import ReviewReport, ReviewRequirement
from harness.providers.base import LLMProvider, has_model
from harness.providers.budget import for_agent

SYSTEM = ("You review an app build. Given the evidence matrix, write at most 5 short concerns or "
          "observations, one per line. You cannot change any status.")


def rule_based_review(matrix: dict, runtime_status: str | None = None) -> ReviewReport:
    """PASS per requirement iff its matrix row is PASS; overall PASS iff all are and nothing is wrong."""
    reqs = [ReviewRequirement(id=row["id"], status=row["status"], evidence=row["evidence"],
                              missing=row["missing"], text=row.get("text", ""),
                              implemented=row.get("implemented", False), tested=row.get("tested", False),
                              runtime=row.get("runtime")) for row in matrix["requirements"]]
    overall_ok = bool(reqs) and all(r.status == "PASS" for r in reqs) and not matrix.get("problems")
    if runtime_status is not None and runtime_status != "PASS":
        overall_ok = False
    notes = [f"rule: {p}" for p in matrix.get("problems", [])]
    if runtime_status is not None and runtime_status != "PASS":
        notes.append(f"rule: runtime verification {runtime_status}")
    return ReviewReport(requirements=reqs, overall_status="PASS" if overall_ok else "FAIL", notes=notes)


class Reviewer:
    """review(matrix) -> ReviewReport. The decision is rule-based; LLM text lands in `notes` only."""

    def __init__(self, llm: LLMProvider | None = None):
        self.llm = for_agent(llm, "reviewer")

    def review(self, matrix: dict, runtime_status: str | None = None) -> ReviewReport:
        report = rule_based_review(matrix, runtime_status)
        if self.llm is not None and has_model(self.llm):
            try:
                text = self.llm.generate(json.dumps({"overall": report.overall_status,
                                                     "requirements": matrix["requirements"]})[:6000], SYSTEM)
            except (ProviderError, BudgetExceededError) as exc:
                # Notes are optional: an unavailable model or a spent budget must not undo a finished build.
                text = ""
                report.notes.append(f"llm rationale unavailable: {str(exc)[:200]}")
            report.notes += [f"llm: {line.strip()[:300]}" for line in text.splitlines()[:5] if line.strip()]
        # The rule-based decision is recomputed last, so no annotation can have changed it.
        decided = rule_based_review(matrix, runtime_status)
        report.overall_status = decided.overall_status
        for mine, rule in zip(report.requirements, decided.requirements):
            mine.status = rule.status
        return report
