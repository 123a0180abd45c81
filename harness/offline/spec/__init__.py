"""Rule-based request understanding: `parse_request(text) -> AppSpec`, pure and deterministic."""

from __future__ import annotations

import copy

from harness.models.spec import AppSpec
from harness.offline.accounting.apply import apply_accounting   # every rule-based spec is word-accounted (#48)
from harness.offline.spec.build import build_spec
from harness.offline.spec.rules import MAX_ENTITIES, NO_ENTITY_MESSAGE, rule_based_parse
from harness.offline.spec.unbuilt_access import note_left_out, unbuilt_asks, without

__all__ = ["MAX_ENTITIES", "NO_ENTITY_MESSAGE", "parse_request"]


def parse_request(text: str) -> AppSpec:
    """The AppSpec the rules infer from `text`; raises SpecError when it names nothing to build."""
    p = rule_based_parse(text)
    before = copy.deepcopy(p)   # build_spec settles the login on the parse: a rebuild starts over
    spec = apply_accounting(build_spec(p))
    unbuilt = unbuilt_asks(p, spec)
    if not unbuilt:
        return spec
    return note_left_out(p, apply_accounting(build_spec(without(before, unbuilt))), unbuilt)
