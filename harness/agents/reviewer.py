"""Reviewer: an LLM may add notes to the rule-based review; it never sees a way to change a status."""

from __future__ import annotations

import json

from harness.errors import BudgetExceededError, ProviderError
from harness.models.results import ReviewReport
from harness.models.trace import TraceMatrix
from harness.providers.base import LLMProvider, has_model
from harness.providers.budget import for_agent

SYSTEM = ("You review an app build. Given the evidence matrix, write at most 5 short concerns or "
          "observations, one per line. You cannot change any status.")


class Reviewer:
    """notes(matrix, report) -> list[str]. The decision is harness.trace.verdict's; text lands in notes only."""

    def __init__(self, llm: LLMProvider | None = None):
        self.llm = for_agent(llm, "reviewer")

    def notes(self, matrix: TraceMatrix, report: ReviewReport) -> list[str]:
        if self.llm is None or not has_model(self.llm):
            return []
        prompt = json.dumps({"overall": report.overall_status,
                             "requirements": [r.model_dump(mode="json") for r in matrix.requirements]})
        try:
            text = self.llm.generate(prompt[:6000], SYSTEM)
        except (ProviderError, BudgetExceededError) as exc:
            # Notes are optional: an unavailable model or a spent budget must not undo a finished build.
            return [f"llm rationale unavailable: {str(exc)[:200]}"]
        return [f"llm: {line.strip()[:300]}" for line in text.splitlines()[:5] if line.strip()]
