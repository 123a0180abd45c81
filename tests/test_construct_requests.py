"""Real requests for the #51 constructs (tests/data/construct_requests.json: each with its public
source, what it should give, written before it was parsed, and what it gave): the constructs the
parser recognised in them, and that it claims none where the record it needs is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.agents.spec_agent import postprocess
from harness.offline.spec.rules import rule_based_spec

DATA = json.loads((Path(__file__).parent / "data" / "construct_requests.json").read_text(encoding="utf-8"))
REQUESTS = {r["id"]: r for r in DATA["requests"]}


def _spec(rid: str):
    return postprocess(rule_based_spec(REQUESTS[rid]["request"]))


def _constructs(spec) -> dict:
    return {"many": {e.ident: e.many for e in spec.data_model if e.many},
            "computed": {e.ident: sorted(e.computed) for e in spec.data_model if e.computed},
            "features": sorted((f.kind, f.entity, tuple(f.fields)) for f in spec.features
                               if f.kind in ("period_summary", "capacity"))}


@pytest.mark.parametrize("rid, constructs", [
    ("board-game-plays", {"many": {"play": ["player"]}, "computed": {}, "features": []}),
    ("reading-per-month", {"many": {}, "computed": {},
                           "features": [("period_summary", "session_item", ("pages_read",))]}),
    ("notes-tags", {"many": {"note": ["tag"]}, "computed": {}, "features": []}),
    ("weekly-completed-tasks", {"many": {}, "computed": {}, "features": [("period_summary", "task", ())]}),
    # "items" names records: the capacity per item is built (before, no item record, not built)
    ("tool-library-loans", {"many": {}, "computed": {"loan": ["overdue"]},
                            "features": [("capacity", "loan", ("item",))]}),
    # the record the construct needs is missing from the parse: nothing is claimed
    ("plant-overdue", {"many": {}, "computed": {}, "features": []}),
    ("water-my-plants", {"many": {}, "computed": {}, "features": []}),
    ("volunteer-shift-capacity", {"many": {}, "computed": {}, "features": []}),
    ("room-capacity", {"many": {}, "computed": {}, "features": []}),
])
def test_each_real_request_gives_the_constructs_its_record_says(rid, constructs):
    assert REQUESTS[rid]["source"].startswith("http") and REQUESTS[rid]["expected"] and REQUESTS[rid]["result"]
    assert _constructs(_spec(rid)) == constructs


@pytest.mark.parametrize("rid, clause", [
    ("room-capacity", "A room holds no more bookings on a date than its capacity."),
    ("plant-overdue", "The plant list shows an overdue label when the days since the last watering exceed "
                      "the frequency."),
])
def test_a_construct_without_its_records_stays_not_built(rid, clause):
    found = next(c for c in _spec(rid).clauses if c.text == clause)
    assert found.status == "not_built"
