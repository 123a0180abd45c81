"""Bug: the black-box CSV import check spoiled a row by emptying its required field. For contacts
with only a required name (drafts stopped inventing a `description`), that row was all empty cells —
a blank line, which the app rightly skipped (201), and the check failed a correct app expecting 422
(tests/test_request_record_tools.py's contacts build). A bad row must stay a row."""

from __future__ import annotations

from harness.acceptance.checks_record_tools import _spoiled
from harness.offline.spec import parse_request


def _cells(row):
    return [v for v in row.values() if v not in ("", None)]


def test_the_csv_bad_row_is_never_a_blank_line_bug():
    spec = parse_request("A contacts app where I can import my contacts from a CSV file")
    contact = spec.entity("contact")
    assert [f.ident for f in contact.fields] == ["name"]   # the case: one required text column
    bad = _spoiled(spec, contact, {"name": "Ada"})
    assert bad is None or _cells(bad), bad


def test_a_row_with_other_cells_is_still_spoiled():
    spec = parse_request("A contacts app with a name and a phone number, imported from a CSV file")
    contact = spec.entity("contact")
    row = {f.ident: "x" for f in contact.fields}
    bad = _spoiled(spec, contact, row)
    assert bad is not None and _cells(bad)
    assert bad != row
