"""Bug: the black-box `no_double_booking` check failed correct apps whose slot was not "a date, a
start time and an end time". It looked only for two time-of-day fields ("rental has no start and
end time" for a date range or a single time on a day; a datetime range was never found), and the
records the other checks made gave every later date/datetime field a later *year*, so each sample
rental or room booking spanned a year, overlapped the one before and was refused with 409.

Now the slot has one definition (harness/constructs/slot.py) that the generator's 409 and the
checks both read; sample records book a resource and a slot of their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.acceptance import run_acceptance
from harness.acceptance.samples import slot_fill, slot_of
from harness.offline.generator import generate_files
from harness.offline.generator.analyse import analyse
from harness.offline.spec_file import load_spec_file
from helpers import run_builder, write_files
from served_app import served

_HEAD = 'title = "{title}"\nauth = true\n[[entities]]\nname = "{thing}"\nfields = [{{ name = "name", required = true }}]\n'
RENTAL = _HEAD.format(title="Bike rentals", thing="bike") + (
    '[[entities]]\nname = "rental"\nparent = "bike"\nfields = [\n'
    '  { name = "start date", kind = "date", required = true },\n'
    '  { name = "end date", kind = "date", required = true },\n  { name = "notes" },\n]\n'
    'features = ["no_double_booking"]\n')
ROOM = _HEAD.format(title="Room bookings", thing="room") + (
    '[[entities]]\nname = "booking"\nparent = "room"\nfields = [\n'
    '  { name = "starts at", kind = "datetime", required = true },\n'
    '  { name = "ends at", kind = "datetime", required = true },\n  { name = "purpose" },\n]\n'
    'features = ["no_double_booking"]\n')
DESK = _HEAD.format(title="Desk bookings", thing="desk") + (
    '[[entities]]\nname = "reservation"\nfields = [\n'
    '  { name = "desk", ref = "desk", required = true },\n'
    '  { name = "day", kind = "date", required = true },\n'
    '  { name = "time", kind = "time", required = true },\n  { name = "notes" },\n]\n'
    'features = ["no_double_booking"]\n')

# (spec, entity, plural, the slot both sides must read: start, end, kind, day, same)
SHAPES = {
    "date_range": (RENTAL, "rental", "rentals", ("start_date", "end_date", "date", None, ("bike_id",))),
    "datetime_range": (ROOM, "booking", "bookings", ("starts_at", "ends_at", "datetime", None, ("room_id",))),
    "time_on_a_day": (DESK, "reservation", "reservations", ("time", "time", "time", "day", ("desk", "day"))),
}


def _spec(tmp_path: Path, shape: str):
    path = tmp_path / f"{shape}.toml"
    path.write_text(SHAPES[shape][0], encoding="utf-8")
    return path, load_spec_file(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_generator_and_checks_read_one_slot_for_each_shape_bug(tmp_path, shape):
    _, spec = _spec(tmp_path, shape)
    _, entity, _, (start, end, kind, day, same) = SHAPES[shape]
    made = analyse(spec).entity(entity).slot
    checked = slot_of(spec.entity(entity))
    assert made == checked
    assert (checked.start, checked.end, checked.kind, checked.day, checked.same) == (start, end, kind, day, same)


@pytest.mark.parametrize("shape", SHAPES)
def test_sample_records_never_overlap_and_an_overridden_start_keeps_a_valid_range_bug(tmp_path, shape):
    _, spec = _spec(tmp_path, shape)
    slot = slot_of(spec.entity(SHAPES[shape][1]))
    spans = [slot_fill(slot, n, {}) for n in range(1, 40)]
    if slot.single:   # one slot per record: no two records share it
        assert len({s[slot.start] for s in spans}) == len(spans)
        return
    ranges = sorted((s[slot.start], s[slot.end]) for s in spans)
    assert all(start < end for start, end in ranges)
    assert all(end <= later for (_, end), (later, _) in zip(ranges, ranges[1:]))
    start = "2031-05-05" if slot.kind == "date" else "2031-05-05T09:00:00"
    assert slot_fill(slot, 3, {slot.start: start})[slot.end] > start


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_each_booking_shape_builds_complete_and_an_overlap_allowing_app_fails_the_check_bug(tmp_path, shape):
    path, spec = _spec(tmp_path, shape)
    _, entity, plural, _ = SHAPES[shape]
    done = run_builder("new", "--spec", path, "--runs-dir", tmp_path / "runs", "--run-id", shape,
                       "--no-audit", timeout=600)
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    report = done.stdout.split("cannot be booked twice for the same slot", 1)[1].split("Status:", 1)[0]
    assert "Black-box: YES" in report and "Status: PASS" in done.stdout.split("cannot be booked twice", 1)[1][:2000]

    files = generate_files(spec)
    api = f"src/api_{entity}.py"
    assert "and TABLE.overlapping(" in files[api]
    files[api] = files[api].replace("and TABLE.overlapping(", "and False and TABLE.overlapping(")  # overlap allowed
    ws = write_files(files, tmp_path / "broken")
    with served(ws, tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    failed = [(c.name, c.detail) for c in checks if not c.ok]
    assert [name for name, _ in failed] == [f"no double booking on {plural}"], failed
    assert "was not refused with 409" in failed[0][1]
