"""The PLAN line names who planned (bug: `PLAN 6 tasks (fallback)` on the normal offline path read like an error)."""

from __future__ import annotations

import pytest

from harness.orchestration.pipeline import plan_source_label


@pytest.mark.parametrize("source, live, text", [
    ("fallback", False, "offline planner"),
    ("fallback", True, "offline planner: the model's plan was unusable"),
    ("llm", True, "llm"),
])
def test_plan_fallback_wording_on_the_offline_path(source, live, text):
    assert plan_source_label(source, live) == text
