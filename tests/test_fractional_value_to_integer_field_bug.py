"""Bug (stranger trial j, n04 / E2, a false FAIL): "The app manages workouts with a duration and a
type. Show the total duration per type." made `duration` an integer and an `aggregate` of it; the
app refused a fractional duration, rightly, but the black-box totals check posted 12.25 and 30.5 to
every field it totalled and failed the requirement ("create a workout: expected 201/200, got …
422 … int_from_float").

Now the values the checks total are samples valid for the field's kind and range
(harness/acceptance/samples.py `summed_values`): whole numbers for an integer or a rating, cents for
money and decimals, inside any `min`/`max`."""

from __future__ import annotations

import pytest

from harness.offline.generator import generate_files
from served_app import acceptance_of, spec_from_toml

pytestmark = pytest.mark.slow

WORKOUTS = '''title = "Workout App"
auth = false
pages = false

[[entities]]
name = "workout"
fields = [{ name = "duration" }, { name = "type" }]
features = [{ kind = "aggregate", fields = ["duration", "type"] }]
'''

KINDS = '''title = "Kinds"
auth = false
pages = false

[[entities]]
name = "entry"
fields = [
    { name = "laps", kind = "integer", min = 2, max = 9 },
    { name = "stars", kind = "rating", min = 1, max = 3 },
    { name = "price", kind = "money", max = 20 },
    { name = "weight", kind = "decimal" },
]
'''


def test_the_totals_check_sends_whole_durations_to_an_integer_field_bug(tmp_path):
    spec = spec_from_toml(tmp_path, WORKOUTS)
    assert spec.entity("workout").fields[0].kind == "integer"
    checks = acceptance_of(tmp_path, spec, generate_files(spec))
    check = checks["aggregate on workouts"]
    assert check.ok and "duration total grew by 42" in check.detail, check.detail
    assert not [(c.name, c.detail) for c in checks.values() if not c.ok]


def test_summed_values_are_valid_for_every_number_kind_and_range(tmp_path):
    """Each total's two values are what the field's kind and range allow (and none is a value the
    checks call wrong for the field)."""
    from harness.acceptance.samples import summed_values, wrong_values

    entry = spec_from_toml(tmp_path, KINDS).entity("entry")
    fields = {f.ident: f for f in entry.fields}
    for ident, low, high, whole in (("laps", 2, 9, True), ("stars", 1, 3, True), ("price", 0, 20, False),
                                    ("weight", None, None, False)):
        values = summed_values(fields[ident])
        wrong = [v for _, v in wrong_values(fields[ident])]
        for value in values:
            assert not whole or isinstance(value, int), (ident, value)
            assert (low is None or value >= low) and (high is None or value <= high), (ident, value)
            assert value not in wrong, (ident, value)
