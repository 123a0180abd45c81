"""The `capacity` feature (#51): at most N records hold the same place at once — one open borrow
per item (examples/hackspace_lending.toml). The spec reads it, a bad one is named in one line, the
generated test passes and catches an app that lets one too many in, the black-box check catches
the same app from outside, and the example builds BUILD COMPLETE."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from harness.acceptance import run_acceptance
from helpers import run_builder, write_files
from served_app import served
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

HACKSPACE = Path(__file__).parents[1] / "examples" / "hackspace_lending.toml"
CHECK = "if TABLE.taken(db, place, ('open',), row_id) >= limit:"


def test_the_hackspace_example_has_one_open_borrow_per_item():
    spec = load_spec_file(HACKSPACE)
    req = next(r for r in spec.requirements if "capacity" in r.acceptance)
    assert req.text == "No more borrows than a place's capacity hold it at once: one more is refused"
    files = generate_files(spec)
    assert CHECK in files["src/api_borrow.py"]
    assert "place = {'item': row.get('item')}" in files["src/api_borrow.py"]
    tests = files["tests/test_api_borrow.py"]
    assert f"@pytest.mark.req('{req.id}')\ndef test_capacity_refuses_one_more_until_a_place_frees_up" in tests


BORROW = ('[[entities]]\nname = "item"\nfields = ["name", { name = "slots", kind = "integer" }]\n'
          '[[entities]]\nname = "borrow"\nworkflow = ["open", "returned"]\n'
          'fields = [{ name = "item", ref = "item" }, { name = "day", kind = "date" }, "notes"]\n')


@pytest.mark.parametrize("feature, message", [
    ('{ kind = "capacity", options = { limit = 0 } }', "capacity on borrows: limit must be between 1 and 1000, not 0"),
    ('{ kind = "capacity", options = { size = 2 } }', "capacity on borrows: unknown option 'size' (allowed: limit, while)"),
    ('{ kind = "capacity", options = { limit = "name" } }',
     "capacity on borrows: limit 'name' is no whole-number field of item (its whole-number fields: slots)"),
    ('{ kind = "capacity", options = { while = ["lost"] } }', "capacity on borrows: while: no state 'lost' (states: open, returned)"),
    ('{ kind = "capacity", fields = ["tool"] }', "capacity on borrows: no field 'tool'"),
    ('{ kind = "capacity", fields = ["notes", "item"] }', "capacity on borrows: 'notes' is a long_text field"),
    ('{ kind = "capacity", fields = ["day"], options = { limit = "slots" } }',
     "capacity on borrows: limit 'slots' names a field of the resource, but fields has no reference or parent"),
])
def test_a_capacity_that_cannot_be_built_is_one_line(tmp_path, feature, message):
    path = tmp_path / "app.toml"
    path.write_text(BORROW + f"features = [{feature}]\n", encoding="utf-8")
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(path)
    text = str(raised.value)
    assert message in text and "\n" not in text and text.startswith(f"{path}:")


def test_while_needs_a_workflow_and_a_place_needs_a_resource(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text('[[entities]]\nname = "seat"\nfields = [{ name = "day", kind = "date" }]\n'
                    'features = [{ kind = "capacity", options = { while = ["open"] } }]\n', encoding="utf-8")
    with pytest.raises(SpecFileError, match="say whose places are counted"):
        load_spec_file(path)
    path.write_text('[[entities]]\nname = "seat"\nfields = [{ name = "day", kind = "date" }]\n'
                    'features = [{ kind = "capacity", fields = ["day"], options = { limit = 3, while = ["open"] } }]\n',
                    encoding="utf-8")
    with pytest.raises(SpecFileError, match="while needs a workflow"):
        load_spec_file(path)


def test_a_capacity_per_day_counts_the_day_too(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text(BORROW + 'features = [{ kind = "capacity", fields = ["item", "day"], options = { limit = "slots" } }]\n',
                    encoding="utf-8")
    api = generate_files(load_spec_file(path))["src/api_borrow.py"]
    assert "place = {'item': row.get('item'), 'day': row.get('day')}" in api
    assert "limit = TABLES['item'].value(db, row['item'], 'slots')" in api
    assert "if limit is not None and TABLE.taken(db, place, (), row_id) >= limit:" in api


# An app that lets one borrow too many in: the place is full only beyond its limit.
TOO_MANY = (CHECK, CHECK.replace(">= limit", "> limit"))


@pytest.mark.slow
def test_the_generated_capacity_test_passes_and_fails_on_one_too_many(tmp_path, suites):  # noqa: F811
    files = generate_files(load_spec_file(HACKSPACE))
    ws = write_files(files, suites.base / "hackspace")
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    (ws / "src" / "api_borrow.py").write_text(files["src/api_borrow.py"].replace(*TOO_MANY), encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider",
                        "tests/test_api_borrow.py::test_capacity_refuses_one_more_until_a_place_frees_up")
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("example, plural", [("hackspace_lending", "borrows"), ("volunteer_signup", "signups")])
def test_each_capacity_example_builds_complete_with_its_capacity_checked_from_outside(tmp_path, example, plural):
    done = run_builder("new", "--spec", HACKSPACE.with_name(f"{example}.toml"), "--runs-dir", tmp_path,
                       "--run-id", example, "--no-audit", timeout=600)
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    report = done.stdout.split(f"No more {plural} than a place's capacity", 1)[1].split("Status:", 1)[0]
    assert "Black-box: YES (1/1 checks" in report


@pytest.mark.slow
def test_the_black_box_capacity_check_fails_an_app_that_lets_one_too_many_in(tmp_path):
    spec = load_spec_file(HACKSPACE)
    files = generate_files(spec)
    files["src/api_borrow.py"] = files["src/api_borrow.py"].replace(*TOO_MANY)
    ws = write_files(files, tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    failed = [(c.name, c.detail) for c in checks if not c.ok]
    assert [name for name, _ in failed] == ["capacity on borrows"], failed
    assert "beyond the capacity of 1 answered 201, not 409" in failed[0][1]


# A room booking takes its place only once confirmed: requested ones wait, cancelled ones free it.
ROOMS = ('[[entities]]\nname = "room"\nfields = ["name", { name = "seats", kind = "integer", min = 1 }]\n'
         '[[entities]]\nname = "booking"\nworkflow = ["requested", "confirmed", "cancelled"]\n'
         'transitions = { requested = ["confirmed", "cancelled"], confirmed = ["cancelled"] }\n'
         'fields = [{ name = "room", ref = "room", required = true }, { name = "day", kind = "date", required = true }]\n'
         'features = [{ kind = "capacity", fields = ["room", "day"], options = { limit = "seats", while = ["confirmed"] } }]\n')


@pytest.mark.slow
def test_a_place_held_only_once_confirmed_is_tested_inside_and_checked_outside(tmp_path, suites):  # noqa: F811
    path = tmp_path / "rooms.toml"
    path.write_text(ROOMS, encoding="utf-8")
    spec = load_spec_file(path)
    files = generate_files(spec)
    assert "if None not in place.values() and (row.get(\"status\") or 'requested') in ('confirmed',):" in files[
        "src/api_booking.py"]
    ws = write_files(files, suites.base / "rooms")
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_api_booking.py")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    assert "test_capacity_refuses_one_more_until_a_place_frees_up" in files["tests/test_api_booking.py"]
    with served(ws, tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    capacity = [c for c in checks if c.name == "capacity on bookings"]
    assert [c.ok for c in capacity] == [True], capacity
    assert "one moved to cancelled" in capacity[0].detail
