"""Bug (stranger trial 2026-12-07i O7, false PASS m3, n1): "Each room can have at most 2 bookings per
day" was built as a capacity of 2 per room ever (fields ["room"]), and "day" was credited to the
booking's date field merely existing: BUILD COMPLETE, while a booking on another, empty day was 409.

Now the parser reads "per day" as part of the place (capacity fields ["room", "date"], the rows "X can
have/take at most N Y" of patterns/features.jsonl), and the accounting realises the period of an
at-most rule only by a capacity whose place includes a date field (accounting/rule_asks.py): "per
week" and a capacity without the date stay not built, named."""

from __future__ import annotations


import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request
from served_app import spec_from_toml

ROOMS = "Rooms have a name. Bookings have a room and a date. Each room can have at most 2 bookings per day."
DOCTORS = ("Doctors have a name. Appointments have a doctor, a patient name and a date. "
           "Each doctor can have at most 8 appointments per day.")


@pytest.mark.parametrize("request_text, resource, occupant", [(ROOMS, "room", "booking"), (DOCTORS, "doctor", "appointment")])
def test_at_most_n_per_day_is_a_capacity_per_day_bug(request_text, resource, occupant):
    spec = parse_request(request_text)
    caps = [f for f in spec.features if f.kind == "capacity"]
    assert [(f.entity, f.fields) for f in caps] == [(occupant, [resource, "date"])], caps
    assert [c.status for c in spec.clauses] == ["mapped", "mapped", "mapped"], [c.unaccounted for c in spec.clauses]


def test_a_capacity_without_the_date_does_not_realise_per_day_bug(tmp_path):
    spec = spec_from_toml(tmp_path, '''title = "Rooms"
[[entities]]
name = "room"
fields = [{ name = "name", required = true }]
[[entities]]
name = "booking"
parent = "room"
fields = [{ name = "date", kind = "date" }]
features = [{ kind = "capacity", fields = ["room"], options = { limit = 2 } }]
''')
    words = account_text("Each room can have at most 2 bookings per day.", spec)
    assert "per day" in words.unaccounted, words.words


def test_a_period_no_capacity_holds_is_named():
    spec = parse_request("Rooms have a name. Bookings have a room and a date. Each room can have at most 2 bookings per week.")
    assert spec.clauses[-1].status == "not_built" and "per week" in spec.clauses[-1].unaccounted, spec.clauses[-1]


@pytest.mark.slow
def test_two_bookings_a_day_then_409_and_another_day_201_over_http(tmp_path):
    from helpers import write_files
    from served_app import json_call, served

    from harness.agents.spec_agent import postprocess
    from harness.offline.generator import generate_files

    def _send(base: str, path: str, body: dict) -> int:
        return json_call(base, "POST", path, body)[0]

    spec = postprocess(parse_request(ROOMS))
    ws = write_files(generate_files(spec), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        assert _send(base, "/api/rooms", {"name": "Blue"}) == 201
        day, other = {"room_id": 1, "date": "2027-01-10"}, {"room_id": 1, "date": "2027-01-11"}
        assert [_send(base, "/api/bookings", day) for _ in range(3)] == [201, 201, 409]
        assert _send(base, "/api/bookings", other) == 201
