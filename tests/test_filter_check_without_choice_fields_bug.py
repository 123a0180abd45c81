"""Bug (a stranger's expense-tracker trial, U1, an under-claim): "User can filter expenses" on a
record with a date, a description, an amount and a comment gave `filter` without fields; the app
filtered (`?date_min=`, `?amount_min=` worked over HTTP) but the black-box check looked only for a
choice, a reference, a boolean or a parent to filter by, found none and failed the requirement with
"no field of expense to filter on". It now falls back to a date or number range, else a short
text's exact value — still failing an app whose range filter does nothing."""

from __future__ import annotations

from pathlib import Path

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from served_app import served

SPEC = '''title = "Expenses"
auth = true
pages = false

[[entities]]
name = "expense"
fields = [
    { name = "date", kind = "date", required = true },
    { name = "description" },
    { name = "amount", kind = "money", required = true },
    { name = "comment", kind = "long_text" },
]
features = ["filter"]
'''
CHECK = "filter on expenses"
RANGES = "ranges = {'date': (iso(date_min), iso(date_max))"


def _spec(tmp_path: Path):
    path = tmp_path / "expenses.toml"
    path.write_text(SPEC, encoding="utf-8")
    return load_spec_file(path)


def _checks(tmp_path: Path, files: dict[str, str], name: str):
    spec = _spec(tmp_path)
    with served(write_files(files, tmp_path / name), tmp_path / f"{name}.db") as base:
        return {c.name: c for c in run_acceptance(base, spec, [], [])}


def test_a_filter_on_a_record_with_only_dates_and_numbers_is_checked_by_a_range_bug(tmp_path):
    check = _checks(tmp_path, generate_files(_spec(tmp_path)), "app")[CHECK]
    assert check.ok, check.detail
    assert "date_min" in check.detail


def test_the_range_check_fails_an_app_whose_date_filter_does_nothing(tmp_path):
    files = generate_files(_spec(tmp_path))
    api = files["src/api_expense.py"]
    assert RANGES in api
    broken = {**files, "src/api_expense.py": api.replace(RANGES, "ranges = {'date': (None, None)")}
    check = _checks(tmp_path, broken, "broken")[CHECK]
    assert not check.ok and "?date_min=" in check.detail, check.detail
