"""Rule-based request understanding: `parse_request(text) -> AppSpec`, pure and deterministic."""

from __future__ import annotations

import copy

from harness.models.spec import AppSpec
from harness.offline.accounting.apply import apply_accounting   # every rule-based spec is word-accounted (#48)
from harness.offline.accounting.record_introductions import records_not_introduced
from harness.offline.spec.build import build_spec
from harness.offline.spec.invented_records import invented_names, note_invented, without_records
from harness.offline.spec.rules import MAX_ENTITIES, NO_ENTITY_MESSAGE, rule_based_parse
from harness.offline.spec.unbuilt_access import note_left_out, unbuilt_asks, without

__all__ = ["MAX_ENTITIES", "NO_ENTITY_MESSAGE", "parse_request"]


def parse_request(text: str) -> AppSpec:
    """The AppSpec the rules infer from `text`; raises SpecError when it names nothing to build."""
    p = rule_based_parse(text)
    before = copy.deepcopy(p)   # build_spec settles the login on the parse: a rebuild starts over
    spec = apply_accounting(build_spec(p))
    unbuilt = unbuilt_asks(p, spec)
    invented = invented_names(spec, records_not_introduced(spec))   # no word introduces them
    if not unbuilt and not invented:
        return spec
    again = apply_accounting(build_spec(without(without_records(before, invented), unbuilt)))
    return note_invented(note_left_out(p, again, unbuilt), invented)
