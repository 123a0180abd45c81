"""period_summary: weekly, monthly and yearly counts and totals ("how many pages I read per month",
examples/reading_log.toml): the spec reads it, a bad date option is named in one line, and the
generated summary test passes and catches an app that groups by the wrong period."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

READING = Path(__file__).parents[1] / "examples" / "reading_log.toml"


def test_the_reading_log_has_a_monthly_summary_route():
    spec = load_spec_file(READING)
    assert any(r.text == "Users see weekly, monthly and yearly counts and totals of reading sessions"
               for r in spec.requirements)
    files = generate_files(spec)
    api = files["src/api_reading_session.py"]
    assert "'/api/reading-sessions/summary'" in api and "('pages_read', 'minutes')" in api
    assert "def test_summary_counts_and_sums_per_period" in files["tests/test_api_reading_session.py"]
    assert "'/api/reading-sessions/summary'" in files["tests/test_health.py"]


def test_a_summary_date_that_is_no_date_field_is_one_line(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text('[[entities]]\nname = "walk"\nfields = [{ name = "day", kind = "date" }, "place"]\n'
                    'features = [{ kind = "period_summary", options = { date = "place" } }]\n', encoding="utf-8")
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(path)
    assert "features[1]: period_summary on walks: options.date 'place' is no date field" in str(raised.value)


# An app whose "month" is really the year: the monthly totals are wrong.
WRONG_PERIOD = ('PERIODS = {"week": "%Y-W%W", "month": "%Y-%m", "year": "%Y"}',
                'PERIODS = {"week": "%Y-W%W", "month": "%Y", "year": "%Y"}')


@pytest.mark.slow
def test_the_generated_summary_test_passes_and_fails_on_a_wrong_period(tmp_path, suites):  # noqa: F811
    files = generate_files(load_spec_file(READING))
    ws = write_files(files, suites.base / "reading")
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    assert WRONG_PERIOD[0] in files["src/models.py"]
    (ws / "src" / "models.py").write_text(files["src/models.py"].replace(*WRONG_PERIOD), encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider",
                        "tests/test_api_reading_session.py::test_summary_counts_and_sums_per_period")
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]
