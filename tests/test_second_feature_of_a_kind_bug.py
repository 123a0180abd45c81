"""Stranger trial i (2026-12-07, library draft): two `capacity` features on one entity ("a book's
copies" and "one copy per student") ended `the spec is not valid: REQ-006 duplicates REQ-005 (same
text)` — no line, no key, requirement ids the file never holds — and the generator would have built
only the first (one feature of each kind per entity). A second feature of a kind is now a located
one-line error; an ask listed twice in `not_built` is one ask."""

from __future__ import annotations

import pytest

from harness.offline.spec_file import SpecFileError, load_spec_file

TWO_CAPACITIES = """\
[[entities]]
name = "room"
fields = ["name"]

[[entities]]
name = "booking"
parent = "room"
fields = [{ name = "day", kind = "date" }]
features = [
    { kind = "capacity", options = { limit = 2 } },
    { kind = "capacity", fields = ["room", "day"], options = { limit = 1 } },
]
"""


def test_a_second_capacity_on_one_entity_is_a_located_error_bug(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text(TWO_CAPACITIES)
    with pytest.raises(SpecFileError) as caught:
        load_spec_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:9: entities[2].features[2]: a second 'capacity' on bookings")
    assert "REQ-" not in message


def test_one_feature_of_each_kind_still_loads(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text(TWO_CAPACITIES.replace('    { kind = "capacity", options = { limit = 2 } },\n', ""))
    spec = load_spec_file(path)
    assert [(f.entity, f.kind, f.fields) for f in spec.features] == [("booking", "capacity", ["room", "day"])]


def test_an_ask_listed_twice_in_not_built_is_one_ask_bug(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text('not_built = ["a waitlist", "A  waitlist", "reminders"]\n\n[[entities]]\nname = "room"\n'
                    'fields = ["name"]\n')
    spec = load_spec_file(path)
    unsupported = [r.text for r in spec.requirements if r.capability == "unsupported"]
    assert unsupported == ["a waitlist", "reminders"]
