"""Bug (a stranger's room-booking trial, D6): a cancelled booking kept blocking its slot — book a
room 08:30-09:00, cancel it, and another booking of that slot got 409 "that time slot is already
booked". The spec language had no way to say which states hold a slot, and a feature option the
generator does not read (`options = { while = [...] }` on `no_double_booking`) was accepted and
silently ignored.

Now `no_double_booking` takes `options.while` (the states in which a booking holds its slot, as
`capacity` does; harness/constructs/holding.py), the generated app, its own test and the black-box
check honour it, and an option a feature does not read is refused at spec load with one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import write_files
from served_app import acceptance_of, served, spec_from_toml

SPEC = '''title = "Rooms"
auth = true
pages = false

[[entities]]
name = "room"
shared = true
fields = [{ name = "name", required = true }]

[[entities]]
name = "booking"
parent = "room"
workflow = ["confirmed", "cancelled"]
fields = [
    { name = "title", required = true },
    { name = "start", kind = "datetime", required = true },
    { name = "end", kind = "datetime", required = true },
]
features = [FEATURE]
'''
HOLDS = '{ kind = "no_double_booking", options = { while = ["confirmed"] } }'
CHECK = "no double booking on bookings"
HELD_CALL = "row_id, ('confirmed',)):"


def _spec(tmp_path: Path, feature: str = HOLDS, name: str = "rooms.toml"):
    return spec_from_toml(tmp_path, SPEC.replace("FEATURE", feature), name)


def _ignoring_while(files: dict[str, str]) -> dict[str, str]:
    """The bug put back: every booking holds its slot whatever its state."""
    api = files["src/api_booking.py"]
    assert HELD_CALL in api
    return {**files, "src/api_booking.py": api.replace(HELD_CALL, "row_id):")}


@pytest.mark.parametrize("feature, says", [
    ('{ kind = "no_double_booking", options = { whilst = ["confirmed"] } }', "unknown option 'whilst' (allowed: while)"),
    ('{ kind = "search", options = { fields = ["title"] } }', "unknown option 'fields' (allowed: none)"),
    ('{ kind = "no_double_booking", options = { while = ["booked"] } }', "while: no state 'booked'"),
    ('{ kind = "no_double_booking", options = { while = ["cancelled"] } }', "while must include the first state 'confirmed'"),
    ('{ kind = "aggregate", options = { group_by = "title" } }', "group_by 'title' is no choice field"),
])
def test_a_feature_option_the_app_would_not_honour_is_refused_at_load_bug(tmp_path, feature, says):
    text = SPEC.replace('{ name = "title", required = true },',   # a number field, for aggregate
                        '{ name = "title", required = true }, { name = "seats", kind = "integer" },')
    path = tmp_path / "options.toml"
    path.write_text(text.replace("FEATURE", feature), encoding="utf-8")
    with pytest.raises(SpecFileError) as caught:
        load_spec_file(path)
    assert says in str(caught.value)


def test_the_holding_states_are_read_and_a_plain_feature_holds_in_every_state(tmp_path):
    held = generate_files(_spec(tmp_path))["src/api_booking.py"]
    plain = generate_files(_spec(tmp_path, '"no_double_booking"', "plain.toml"))["src/api_booking.py"]
    assert HELD_CALL in held and "in ('confirmed',)" in held
    assert HELD_CALL not in plain and "TABLE.overlapping(" in plain


def test_a_cancelled_booking_frees_its_slot_bug(tmp_path):
    spec = _spec(tmp_path)
    ws = write_files(generate_files(spec), tmp_path / "app")
    with served(ws, tmp_path / "app.db") as base, httpx.Client(base_url=base, trust_env=False) as http:
        creds = {"username": "alice", "password": "correct-horse-battery"}
        assert http.post("/api/auth/register", json=creds).status_code == 201
        alice = {"Authorization": f"Bearer {http.post('/api/auth/login', json=creds).json()['token']}"}
        room = http.post("/api/rooms", json={"name": "Room 1"}, headers=alice).json()["id"]
        slot = {"room_id": room, "title": "standup", "start": "2026-12-10T08:30:00", "end": "2026-12-10T09:00:00"}
        booked = http.post("/api/bookings", json=slot, headers=alice)
        assert booked.status_code == 201, booked.text
        assert http.post("/api/bookings", json=slot, headers=alice).status_code == 409
        cancel = http.put(f"/api/bookings/{booked.json()['id']}", json={"status": "cancelled"}, headers=alice)
        assert cancel.status_code == 200, cancel.text
        again = http.post("/api/bookings", json=slot, headers=alice)
        assert again.status_code == 201, again.text
        checks = run_acceptance(base, spec, [], [])
    check = next(c for c in checks if c.name == CHECK)
    assert check.ok and "booked again" in check.detail, check.detail


def test_the_acceptance_check_fails_an_app_where_a_cancelled_booking_blocks_its_slot_bug(tmp_path):
    spec = _spec(tmp_path)
    checks = acceptance_of(tmp_path, spec, _ignoring_while(generate_files(spec)), "broken")
    failed = [(c.name, c.detail) for c in checks.values() if not c.ok]
    assert [name for name, _ in failed] == [CHECK], failed
    assert "moved to cancelled" in failed[0][1] and "409" in failed[0][1]


@pytest.mark.slow
def test_the_generated_booking_test_fails_an_app_where_a_cancelled_booking_blocks_its_slot_bug(tmp_path):
    files = generate_files(_spec(tmp_path))
    for name, app, code in (("fixed", files, 0), ("broken", _ignoring_while(files), 1)):
        ws = write_files(app, tmp_path / name)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "tests/test_api_booking.py", "-k", "test_no_double_booking"],
                              cwd=ws, capture_output=True, text=True, timeout=300)
        assert done.returncode == code, (name, done.stdout[-3000:])
        assert "1 passed" in done.stdout if code == 0 else "again.status_code == 201" in done.stdout
