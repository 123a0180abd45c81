"""The `limit` feature (#51): a number field of a record is at most a number field of the record it
refers to — a booking's attendee count within its room's maximum occupancy
(examples/room_bookings.toml, https://midspiral.com/guides/room-booking-spec/). The spec reads it,
a bad one is one line, the generated app refuses a value above the bound (422), the black-box check
fails an app without the limit, and the example builds BUILD COMPLETE."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import run_builder
from served_app import acceptance_of, spec_from_toml

ROOMS = Path(__file__).parents[1] / "examples" / "room_bookings.toml"
CHECK = "if value is not None and bound is not None and value > bound:"
NAME = "limit on bookings"

BOOKINGS = ('[[entities]]\nname = "room"\nfields = ["name", { name = "seats", kind = "integer", min = 1 }, '
            '{ name = "rate", kind = "money" }]\n'
            '[[entities]]\nname = "desk"\nfields = ["name", { name = "seats", kind = "integer" }]\n'
            '[[entities]]\nname = "booking"\nparent = "room"\n'
            'fields = ["title", { name = "people", kind = "integer", min = 1 }, { name = "desk", ref = "desk" }, '
            '{ name = "day", kind = "date" }]\n')


def test_the_room_example_limits_attendees_by_the_room_s_occupancy():
    spec = load_spec_file(ROOMS)
    assert not [r for r in spec.requirements if r.capability == "unsupported"]
    req = next(r for r in spec.requirements if r.acceptance == "booking.features limit")
    assert req.text == "A booking's attendee count is at most its room's maximum occupancy: more is refused"
    files = generate_files(spec)
    api = files["src/api_booking.py"]
    assert "bound = TABLES['room'].value(db, row.get('room_id'), 'maximum_occupancy')" in api
    assert CHECK in api
    assert f"@pytest.mark.req('{req.id}')\ndef test_limit_refuses_a_value_above_the_referenced_bound" in files[
        "tests/test_api_booking.py"]
    # every other generated test makes rooms big enough for its bookings
    assert "'maximum_occupancy': 1000000" in files["tests/test_api_booking.py"]


@pytest.mark.parametrize("feature, message", [
    ('{ kind = "limit", fields = ["people"] }', 'say what bounds it: options = { max = "<number field'),
    ('{ kind = "limit", fields = ["people"], options = { max = "seats", most = 3 } }',
     "unknown option 'most' (allowed: max)"),
    ('{ kind = "limit", fields = ["people", "day"], options = { max = "seats" } }',
     'fields names the one number field that is limited'),
    ('{ kind = "limit", fields = ["guests"], options = { max = "seats" } }', "no field 'guests'"),
    ('{ kind = "limit", fields = ["title"], options = { max = "seats" } }',
     "'title' is a short_text field; a limit bounds a number field"),
    ('{ kind = "limit", fields = ["people"], options = { max = "name" } }',
     "max 'name' is no number field of room (its number fields: seats, rate)"),
    ('{ kind = "limit", fields = ["people"], options = { max = "size" } }', "max 'size' is no number field of room"),
    ('{ kind = "limit", fields = ["people"], options = { max = "hall.seats" } }',
     "max 'hall.seats': 'hall' is no reference field or parent (the records it refers to: room_id, desk)"),
    ('{ kind = "limit", fields = ["people"], options = { max = 12 } }', "say what bounds it"),
])
def test_a_limit_that_cannot_be_built_is_one_line(tmp_path, feature, message):
    path = tmp_path / "app.toml"
    path.write_text(BOOKINGS + f"features = [{feature}]\n", encoding="utf-8")
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(path)
    text = str(raised.value)
    assert f"{NAME}: {message}" in text and "\n" not in text and text.startswith(f"{path}:"), text


def test_a_limit_names_which_referenced_record_bounds_it(tmp_path):
    """The bare name is the parent's field; `<reference>.<field>` picks another referenced record."""
    parent = spec_from_toml(tmp_path, BOOKINGS + 'features = [{ kind = "limit", fields = ["people"], '
                            'options = { max = "seats" } }]\n')
    assert "TABLES['room'].value(db, row.get('room_id'), 'seats')" in generate_files(parent)["src/api_booking.py"]
    desk = spec_from_toml(tmp_path, BOOKINGS + 'features = [{ kind = "limit", fields = ["people"], '
                          'options = { max = "desk.seats" } }]\n', "desk.toml")
    assert "TABLES['desk'].value(db, row.get('desk'), 'seats')" in generate_files(desk)["src/api_booking.py"]
    no_parent = BOOKINGS.replace('parent = "room"\n', "").replace(
        '{ name = "day"', '{ name = "room", ref = "room" }, { name = "day"')
    with pytest.raises(SpecFileError, match=r'say whose field bounds it: max = "<desk\|room>.seats"'):
        spec_from_toml(tmp_path, no_parent + 'features = [{ kind = "limit", fields = ["people"], '
                       'options = { max = "seats" } }]\n', "two.toml")


@pytest.mark.slow
def test_the_black_box_limit_check_fails_an_app_without_the_limit(tmp_path):
    """Real uvicorn: the generated app passes the check; with the limit removed it fails it, naming
    the 201 it gave a booking above the room's occupancy."""
    spec = load_spec_file(ROOMS)
    files = generate_files(spec)
    kept = acceptance_of(tmp_path, spec, files, "kept")[NAME]
    assert kept.ok, kept.detail
    assert "→ 422 (create and update)" in kept.detail
    files["src/api_booking.py"] = files["src/api_booking.py"].replace(CHECK, "if False:")
    checks = acceptance_of(tmp_path, spec, files, "unlimited")
    failed = [(c.name, c.detail) for c in checks.values() if not c.ok]
    assert [name for name, _ in failed] == [NAME], failed
    assert "above its room's maximum_occupancy 3, answered 201, not 422" in failed[0][1]


@pytest.mark.slow
def test_the_black_box_limit_check_fails_an_app_with_a_fixed_limit(tmp_path):
    """An app that compares with a constant (the first room's bound) instead of each room's own."""
    spec = load_spec_file(ROOMS)
    files = generate_files(spec)
    files["src/api_booking.py"] = files["src/api_booking.py"].replace(CHECK, CHECK.replace("> bound", "> 3"))
    check = acceptance_of(tmp_path, spec, files, "fixed")[NAME]
    assert not check.ok and "the bound is the room's own" in check.detail, check.detail


@pytest.mark.slow
def test_the_room_example_builds_complete_with_its_limit_checked_from_outside(tmp_path):
    done = run_builder("new", "--spec", ROOMS, "--runs-dir", tmp_path, "--run-id", "rooms", "--no-audit", timeout=600)
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    report = done.stdout.split("attendee count is at most its room's maximum occupancy", 1)[1].split("Status:", 1)[0]
    assert "Black-box: YES (1/1 checks" in report
