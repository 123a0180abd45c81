"""Bug (stranger trial j, D2, a false FAIL): the tool's own draft of a hotel booking app, built
with --spec, has `booking` with `{ name = "number of times" }` (an integer) and
`features = ["aggregate"]`. The app sums it (`GET /api/bookings/totals` →
`{"count": 1, "sums": {"number_of_times": 3}}`) and its own test passed, but the black-box check
looked only for a money or decimal field and failed the requirement with "booking has no amount
to total", naming neither the entity's feature nor a field to change.

Now the check totals what `aggregate` totals (the named number field, else a money field, else the
first number field of any kind: integer, decimal, rating), and when there is none its line names the
entity, its fields and their kinds."""

from __future__ import annotations

import pytest

from harness.offline.generator import generate_files
from served_app import acceptance_of, spec_from_toml

pytestmark = pytest.mark.slow

DRAFT = '''title = "Basic Hotel Booking System"
language = "en"
auth = false
dashboard = true

[[entities]]
name = "booking"
fields = [
    { name = "number of times" },
]
features = ["aggregate"]
'''
CHECK = "aggregate on bookings"


def test_an_app_totalling_its_integer_field_passes_the_totals_check_bug(tmp_path):
    spec = spec_from_toml(tmp_path, DRAFT)
    assert spec.entity("booking").fields[0].kind == "integer"
    checks = acceptance_of(tmp_path, spec, generate_files(spec))
    assert checks[CHECK].ok and "number_of_times total grew by 42" in checks[CHECK].detail, checks[CHECK].detail
    assert not [(c.name, c.detail) for c in checks.values() if not c.ok]


def test_the_check_fails_an_app_whose_totals_leave_the_integer_out(tmp_path):
    spec = spec_from_toml(tmp_path, DRAFT)
    files = generate_files(spec)
    summed = "TOTAL_COLUMNS = ('number_of_times',)"
    assert summed in files["src/api_booking.py"]
    broken = {**files, "src/api_booking.py": files["src/api_booking.py"].replace(summed, "TOTAL_COLUMNS = ()")}
    check = acceptance_of(tmp_path, spec, broken, "broken")[CHECK]
    assert not check.ok and "no total in /api/bookings/totals grew by 42" in check.detail, check.detail


def test_no_number_to_total_names_the_entity_and_its_fields(tmp_path):
    """A spec whose entity has no number field: the line says which entity and which fields."""
    spec = spec_from_toml(tmp_path, DRAFT)
    files = generate_files(spec)
    booking = spec.entity("booking")
    booking.fields[0] = booking.fields[0].model_copy(update={"kind": "short_text", "type": "str"})
    check = acceptance_of(tmp_path, spec, files)[CHECK]
    assert not check.ok
    assert "aggregate on entity booking" in check.detail and "number of times (short_text)" in check.detail, check.detail
