"""Bug: the tool's own draft of an expense tracker (date, time, description, amount, comment;
`features = ["filter", ...]`), once its app could be built (see
test_free_text_into_a_time_field_bug.py), still failed "Users can filter expenses": the app filters
?date_min=/?amount_min= (a bare filter filters every filterable field), but the black-box check of
a bare filter looked only for a choice, reference, yes/no field or a parent and, finding none, said
"no field of expense to filter on".

Now a bare filter's check falls back to the entity's first date, number or exact-text field."""

from __future__ import annotations

import pytest

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from served_app import acceptance_of, served, spec_from_toml

pytestmark = pytest.mark.slow

DRAFT = '''title = "Expense App"
auth = true
pages = false

[[entities]]
name = "expense"
fields = [{ name = "date" }, { name = "time" }, { name = "description" }, { name = "amount" },
          { name = "comment" }]
features = ["filter"]
'''


def test_a_bare_filter_of_an_entity_without_choices_is_checked_by_its_first_date_bug(tmp_path):
    path = tmp_path / "expense_draft.toml"
    path.write_text(DRAFT, encoding="utf-8")
    spec = load_spec_file(path)
    ws = write_files(generate_files(spec), tmp_path / "app")
    with served(ws, tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    check = next(c for c in checks if c.name == "filter on expenses")
    assert check.ok and "date_min" in check.detail, check.detail
    assert not [(c.name, c.detail) for c in checks if not c.ok]


def test_the_fallback_range_check_fails_an_app_whose_date_filter_does_nothing(tmp_path):
    """The fallback is a real check: with the date range dropped from the app, it fails."""
    spec = spec_from_toml(tmp_path, DRAFT)
    files = generate_files(spec)
    ranges = "ranges = {'date': (iso(date_min), iso(date_max))"
    assert ranges in files["src/api_expense.py"]
    broken = {**files, "src/api_expense.py": files["src/api_expense.py"].replace(ranges, "ranges = {'date': (None, None)")}
    check = acceptance_of(tmp_path, spec, broken, "broken")["filter on expenses"]
    assert not check.ok and "?date_min=" in check.detail, check.detail
