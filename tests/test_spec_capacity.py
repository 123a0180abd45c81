"""The parser recognises capacity and slot phrasings (patterns/features.jsonl, pass "capacity") and
gives the spec language's `capacity` feature (docs/spec-language.md) on the records that take the
resource's places — only when those records belong to or refer to the resource."""

from __future__ import annotations

import pytest

from harness.agents.spec_agent import postprocess
from harness.offline.features import can_build
from harness.offline.spec.rules import rule_based_spec


def _spec(request: str):
    return postprocess(rule_based_spec(request))


def _capacity(spec):
    return [(f.entity, f.fields, f.options) for f in spec.features if f.kind == "capacity"]


@pytest.mark.parametrize("request_text, capacity", [
    ("Sessions have a title and a date; volunteers have a name. Each session can have at most one volunteer.",
     ("volunteer", ["session_item"], {"limit": 1})),
    ("Rooms have a name. Bookings have a room and a date. A room holds 10 people.",
     ("booking", ["room"], {"limit": 10})),
    ("Rooms have a name. Bookings have a room and a date. A room holds ten people a day.",
     ("booking", ["room", "date"], {"limit": 10})),
    ("Rooms have a name and a capacity. Bookings have a room and a date. "
     "A room holds no more bookings on a date than its capacity.",
     ("booking", ["room", "date"], {"limit": "capacity"})),
    ("Books have a title. Loans have a book, a member and a due date. A book is out on loan to one member at a time.",
     ("loan", ["book"], {"limit": 1})),
    ("Books have a title. Loans have a book and a status: out, returned. "
     "A book can only be lent to one member at a time.",
     ("loan", ["book"], {"limit": 1, "while": ["out"]})),
])
def test_a_capacity_phrasing_gives_the_capacity_the_generator_builds(request_text, capacity):
    spec = _spec(request_text)
    assert _capacity(spec) == [capacity]
    feature = next(f for f in spec.features if f.kind == "capacity")
    assert can_build(feature, spec) == (True, "")
    req = next(r for r in spec.requirements if r.text.startswith("No more"))
    assert spec.clauses[-1].status == "mapped" and req.id in spec.clauses[-1].reqs


@pytest.mark.parametrize("request_text", [
    "Rooms have a name. A room holds 10 people.",                          # nothing takes the room
    "Books have a title. Members have a name. A member can borrow one book at a time.",   # no loan record
    "Tasks have a title. Do one task at a time.",
    "Rooms have a name and a capacity. Show how many people the room holds.",
])
def test_a_capacity_without_records_that_take_the_place_is_not_claimed(request_text):
    spec = _spec(request_text)
    assert _capacity(spec) == []
    assert not [r for r in spec.requirements if r.text.startswith("No more")]


def test_bug_loans_have_a_tool_belong_to_the_tool():
    """'Loans have a tool, ...' made each tool a child of a loan (as 'a project has tasks'), so 'a tool
    is out on loan to one member at a time' had no loans of a tool to limit. A plural record that has
    'a' singular record belongs to it."""
    spec = _spec("Tools have a name. Loans have a tool, a member and a due date. "
                 "A tool is out on loan to one member at a time.")
    assert {e.ident: e.parent for e in spec.data_model} == {"tool": None, "loan": "tool"}
    assert _capacity(spec) == [("loan", ["tool"], {"limit": 1})]


def test_a_record_that_has_many_others_stays_their_parent():
    spec = _spec("Projects have a name and many tasks. Tasks have a title.")
    assert {e.ident: e.parent for e in spec.data_model} == {"project": None, "task": "project"}
