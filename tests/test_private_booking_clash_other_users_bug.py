"""Bug: on a record private to its creator, `no_double_booking` refused only clashes with the same
user's bookings. Alice booked room 1 on 2026-12-10 10:00-12:00 (201); Bob booked the identical slot
of the same shared room and got 201 too, while the build reported "cannot be booked twice" PASS:
the generated clash check read only the caller's rows, its own test booked as one user, and so did
the black-box acceptance check.

Now the clash check reads every user's rows of the resource (listing stays private, the 409 names
nobody), the generated test books the slot again as a second user, and the black-box check does the
same whenever the app has accounts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from served_app import served

SPEC = '''title = "Private clash"
auth = true
pages = false

[[entities]]
name = "room"
shared = true
fields = [{ name = "name", required = true }]

[[entities]]
name = "booking"
fields = [
    { name = "room", ref = "room", required = true },
    { name = "date", kind = "date", required = true },
    { name = "start time", kind = "time", required = true },
    { name = "end time", kind = "time", required = true },
]
features = ["no_double_booking"]
'''
CHECK = "no double booking on bookings"
QUOTED = "quoted={'id': '\"id\"', "


def _files(tmp_path: Path) -> tuple[object, dict[str, str]]:
    path = tmp_path / "private_clash.toml"
    path.write_text(SPEC, encoding="utf-8")
    spec = load_spec_file(path)
    return spec, generate_files(spec)


def _owner_scoped(files: dict[str, str]) -> dict[str, str]:
    """The bug put back: the clash check compares the caller's own rows only (owner_id in `same`)."""
    api, models = files["src/api_booking.py"], files["src/models.py"]
    assert "db, {'room': row.get('room')" in api and QUOTED in models
    return {**files, "src/api_booking.py": api.replace("db, {'room': row.get('room')",
                                                       "db, {'owner_id': int(owner_id), 'room': row.get('room')"),
            "src/models.py": models.replace(QUOTED, QUOTED + "'owner_id': '\"owner_id\"', ")}


def _user(http: httpx.Client, name: str) -> dict[str, str]:
    credentials = {"username": name, "password": "correct-horse-battery"}
    assert http.post("/api/auth/register", json=credentials).status_code == 201
    return {"Authorization": f"Bearer {http.post('/api/auth/login', json=credentials).json()['token']}"}


def test_a_second_user_cannot_book_a_slot_another_user_holds_bug(tmp_path):
    spec, files = _files(tmp_path)
    ws = write_files(files, tmp_path / "app")
    with served(ws, tmp_path / "app.db") as base, httpx.Client(base_url=base, trust_env=False) as http:
        alice, bob = _user(http, "alice"), _user(http, "bobby")
        room = http.post("/api/rooms", json={"name": "Room 1"}, headers=alice).json()["id"]
        slot = {"room": room, "date": "2026-12-10", "start_time": "10:00", "end_time": "12:00"}
        booked = http.post("/api/bookings", json=slot, headers=alice)
        assert booked.status_code == 201, booked.text
        taken = http.post("/api/bookings", json=slot, headers=bob)
        assert taken.status_code == 409, taken.text
        assert "alice" not in taken.text and str(booked.json()["id"]) not in taken.json()["detail"]
        assert http.get("/api/bookings", headers=bob).json() == []      # listing stays private
        assert http.post("/api/bookings", json={**slot, "start_time": "12:00", "end_time": "13:00"},
                         headers=bob).status_code == 201                # the adjacent slot is free
        checks = run_acceptance(base, spec, [], [])
    check = next(c for c in checks if c.name == CHECK)
    assert check.ok and "another user's overlapping one → 409" in check.detail, check.detail


def test_the_acceptance_check_fails_an_app_whose_clash_check_reads_one_users_rows_bug(tmp_path):
    spec, files = _files(tmp_path)
    ws = write_files(_owner_scoped(files), tmp_path / "broken")
    with served(ws, tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    failed = [(c.name, c.detail) for c in checks if not c.ok]
    assert [name for name, _ in failed] == [CHECK], failed
    assert "second user" in failed[0][1] and "every user's bookings" in failed[0][1]


def test_the_generated_booking_test_fails_an_app_whose_clash_check_reads_one_users_rows_bug(tmp_path):
    _, files = _files(tmp_path)
    for name, app, code in (("fixed", files, 0), ("broken", _owner_scoped(files), 1)):
        ws = write_files(app, tmp_path / name)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "tests/test_api_booking.py", "-k", "test_no_double_booking"],
                              cwd=ws, capture_output=True, text=True, timeout=300)
        assert done.returncode == code, (name, done.stdout[-3000:])
        assert "1 passed" in done.stdout if code == 0 else "assert 201 == 409" in done.stdout
