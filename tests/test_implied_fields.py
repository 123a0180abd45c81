"""Occurrence records get the time fields a developer would add unasked (fresh held-out 38)."""
from __future__ import annotations

from harness.models.spec import EntityField
from harness.offline.spec import parse_request
from harness.offline.spec.implied_fields import implied_fields


def _fields(spec, name):
    return {f.ident: f.kind for f in spec.entity(name).fields}


def test_tracked_naps_and_poops_get_start_end_and_time_as_datetimes_bug_false_pass_38() -> None:
    """Bug: 'track baby naps and poops' ended BUILD COMPLETE with naps that cannot say when they happened."""
    spec = parse_request("Make an app to track baby naps and poops etc")
    assert _fields(spec, "nap")["start_time"] == "datetime" and _fields(spec, "nap")["end_time"] == "datetime"
    assert _fields(spec, "poop")["time"] == "datetime"
    assert "description" not in _fields(spec, "nap")   # nobody asked for one (#48 D9)


def test_a_record_that_already_says_when_gets_nothing_implied() -> None:
    have = [EntityField(name="date", ident="date", type="date", kind="date")]
    assert implied_fields("nap", have) == []


def test_other_nouns_get_nothing_implied() -> None:
    assert implied_fields("book", []) == [] and implied_fields("exercise", []) == []
    assert [f.ident for f in implied_fields("night shift", [])] == ["start_time", "end_time"]
