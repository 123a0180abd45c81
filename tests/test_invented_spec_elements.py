"""The offline parser builds only what the request asks (#48, trial 2026-12-07 I1-I3): an element
nobody asked for is reported PASS and misleads the user even when the build fails. Each expected
draft was written before reading the code; what the parser cannot read stays "not understood"."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


def _entity(spec, name):
    return next(e for e in spec.data_model if e.name == name)


def _idents(spec, name):
    return [f.ident for f in _entity(spec, name).fields]


# I1: a record whose fields the request lists gets those fields, no start/end time of its own.
@pytest.mark.parametrize("request_text,record,fields", [
    ("Each visit has a doctor and a note", "visit", ["doctor", "note"]),
    ("Users log trips. Each trip has a destination and a driver.", "trip", ["destination", "driver"]),
    ("Each meeting has a topic and a room.", "meeting", ["topic", "room"]),
])
def test_a_listed_record_gets_no_invented_time_fields_bug(request_text, record, fields):
    spec = parse_request(request_text)
    assert _idents(spec, record) == fields
    assert all(c.status == "mapped" for c in spec.clauses), [(c.text, c.reason) for c in spec.clauses]


def test_an_occurrence_named_without_fields_still_gets_its_time() -> None:
    """'track baby naps' lists nothing a nap has: its start and end are what a nap record is."""
    assert {"start_time", "end_time"} <= set(_idents(parse_request("Make an app to track baby naps"), "nap"))


# I3: "the state of each appointment" names no states: a plain `state` column, never open/done.
@pytest.mark.parametrize("request_text,records", [
    ("Users manage projects and todos. Keep the state of each project and todo.", ["project", "todo"]),
    ("Users manage appointments with a date. The assistant sees the state of each appointment.",
     ["appointment"]),
])
def test_the_state_of_a_record_invents_no_open_done_status_bug(request_text, records):
    spec = parse_request(request_text)
    for name in records:
        ent = _entity(spec, name)
        assert not ent.has_status and not ent.workflow, f"{name} got states nobody named"
        assert "state" in _idents(spec, name)
