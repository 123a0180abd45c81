"""Rule-based request understanding: `parse_request(text) -> AppSpec`, pure and deterministic."""

from __future__ import annotations

from harness.models.spec import AppSpec
from harness.offline.accounting.apply import apply_accounting   # every rule-based spec is word-accounted (#48)
from harness.offline.spec.rules import MAX_ENTITIES, NO_ENTITY_MESSAGE, rule_based_spec

__all__ = ["MAX_ENTITIES", "NO_ENTITY_MESSAGE", "parse_request"]


def parse_request(text: str) -> AppSpec:
    """The AppSpec the rules infer from `text`; raises SpecError when it names nothing to build."""
    return apply_accounting(rule_based_spec(text))
