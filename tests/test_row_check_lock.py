"""A whole-record rule that reads other records — a place's capacity (examples/hackspace_lending.toml)
or no double booking (examples/club_bookings.toml) — and the write after it are one transaction:
the generated `_check_row` takes SQLite's write lock (BEGIN IMMEDIATE) before it reads. Before,
two requests could both count the last place free and both take it (a tool lent to two members
at once). Proved with two connections and no timing (tests/row_check_lock_probe.py)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.audit.mutator import apply, candidates
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

ROOT = Path(__file__).resolve().parents[1]
PROBE = ROOT / "tests" / "row_check_lock_probe.py"
LOCK = 'if not db.in_transaction:'

CASES = {
    "capacity": ("hackspace_lending", "borrow", "/api/borrows",
                 {"item": ["/api/items", {"name": "Soldering iron", "label": "SI-1"}]},
                 {"borrowed_when": "2024-01-02"}),
    "no_double_booking": ("club_bookings", "booking", "/api/bookings",
                          {"court_id": ["/api/courts", {"name": "Court 1"}],
                           "member": ["/api/members", {"name": "Ada", "email": "ada@example.com"}]},
                          {"date": "2024-01-02", "start_time": "09:30", "end_time": "11:00"}),
}


@pytest.mark.parametrize("feature", list(CASES))
def test_row_check_and_write_are_one_transaction_bug(tmp_path, feature):
    example, ident, url, refs, body = CASES[feature]
    ws = write_files(generate_files(load_spec_file(ROOT / "examples" / f"{example}.toml")), tmp_path / "ws")
    done = subprocess.run([sys.executable, str(PROBE), ident, url, json.dumps(refs), json.dumps(body)],
                          cwd=ws, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]


ROOMS = ('[[entities]]\nname = "room"\nfields = ["name", { name = "seats", kind = "integer", min = 1 }]\n'
         '[[entities]]\nname = "booking"\n'
         'fields = [{ name = "room", ref = "room", required = true }, { name = "day", kind = "date", required = true },\n'
         '          { name = "starts at", kind = "time", required = true }, { name = "ends at", kind = "time", required = true }]\n')


def _generated(tmp_path, features: str) -> dict[str, str]:
    path = tmp_path / "rooms.toml"
    path.write_text(ROOMS + f"features = [{features}]\n", encoding="utf-8")
    return generate_files(load_spec_file(path))


def test_the_lock_comes_before_the_reads_once_and_its_test_once(tmp_path):
    files = _generated(tmp_path, '"no_double_booking", { kind = "capacity", fields = ["room", "day"], '
                                 'options = { limit = "seats" } }')
    api, tests = files["src/api_booking.py"], files["tests/test_api_booking.py"]
    check = api.split("def _check_row(", 1)[1].split("\ndef ", 1)[0]
    assert check.count(LOCK) == 1 and check.count('db.execute("BEGIN IMMEDIATE")') == 1
    assert check.index("must be after") < check.index(LOCK) < check.index("TABLE.overlapping(") < check.index(
        "TABLE.taken(")
    update = api.split("def update_item(", 1)[1].split("\ndef ", 1)[0]
    assert update.index(LOCK) < update.index('db.execute("BEGIN IMMEDIATE")') < update.index("current = ")
    ast.parse(tests)
    assert tests.count("def test_the_row_check_holds_the_write_lock_until_the_write(") == 1
    assert tests.count("def test_an_update_reads_the_stored_record_under_the_write_lock(") == 1
    assert "body['room'] = create_room(client, headers, **{'seats': 5})" in tests


@pytest.mark.parametrize("feature", list(CASES))
def test_an_update_reads_the_stored_record_after_the_write_lock_bug(feature, suites):  # noqa: F811
    """The update handler read the stored record (to merge it with the body for the row check)
    before _check_row took the write lock: a concurrent update between that read and the lock was
    lost or judged on stale values. The generated test watches the statements the update runs."""
    example, ident = CASES[feature][:2]
    ws = write_files(generate_files(load_spec_file(ROOT / "examples" / f"{example}.toml")),
                     suites.base / f"update-lock-{feature}")
    test = f"tests/test_api_{ident}.py::test_an_update_reads_the_stored_record_under_the_write_lock"
    done = suites.run(ws, "-q", "-p", "no:cacheprovider", test)
    assert done.exit_code == 0 and "1 passed" in done.stdout, done.stdout[-3000:]


def test_a_rule_that_reads_no_other_record_takes_no_lock(tmp_path):
    files = _generated(tmp_path, '"csv_export"')
    api = files["src/api_booking.py"]
    assert "must be after" in api and LOCK not in api and "BEGIN IMMEDIATE" not in api
    assert "test_the_row_check_holds_the_write_lock" not in files["tests/test_api_booking.py"]


@pytest.mark.slow
def test_the_generated_lock_test_kills_every_mutant_of_the_lock(suites):  # noqa: F811
    """The mutation audit mutates the lock lines too: each mutant (the condition negated, the
    BEGIN IMMEDIATE dropped) fails the generated test, so none is an unkillable survivor."""
    files = generate_files(load_spec_file(ROOT / "examples" / "hackspace_lending.toml"))
    api = files["src/api_borrow.py"]
    sites = [n for n, line in enumerate(api.splitlines(), 1) if LOCK in line]
    assert len(sites) == 2, sites   # _check_row's and update_item's
    mutants = candidates(api, {n + k for n in sites for k in (0, 1)})
    assert sorted(m.kind for m in mutants) == ["negate", "negate", "update", "update"], mutants
    ws = write_files(files, suites.base / "hackspace-lock")
    tests = ["tests/test_api_borrow.py::test_the_row_check_holds_the_write_lock_until_the_write",
             "tests/test_api_borrow.py::test_an_update_reads_the_stored_record_under_the_write_lock"]
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider", *tests)
    assert kept.exit_code == 0 and "2 passed" in kept.stdout, kept.stdout[-3000:]
    for mutant in mutants:
        (ws / "src" / "api_borrow.py").write_text(apply(api, [mutant], guarded=False), encoding="utf-8")
        broken = suites.run(ws, "-q", "-p", "no:cacheprovider", *tests)
        assert broken.exit_code == 1 and " failed" in broken.stdout, (mutant.description, broken.stdout[-3000:])
