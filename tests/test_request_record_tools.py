"""Requests that ask for a record tool in plain English (a calendar, CSV import, files attached to a
record) get it in their spec, and their clause is mapped to its requirement: the rows of
patterns/features.jsonl with an `entity_tool` action (pass "record tools")."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from harness.offline.spec import parse_request

EXPENSE_PHOTOS = "An app to track expenses where I can upload a photo of the receipt"
CONTACTS_CSV = "A contacts app where I can import my contacts from a CSV file"
JOB_CALENDAR = "A job tracker with a calendar of upcoming jobs"


def _clause_reqs(spec) -> list[tuple[str, list[str]]]:
    return [(c.status, c.reqs) for c in spec.clauses]


def test_a_receipt_photo_upload_gives_expenses_attachments_and_maps_the_clause():
    spec = parse_request(EXPENSE_PHOTOS)
    expense = spec.entity("expense")
    assert expense.attachment_types == ["application/pdf", "image/jpeg", "image/png"]
    assert expense.attachment_max_kb == 5120
    attach = [r for r in spec.requirements if r.capability == "attachment"]
    assert [r.entity for r in attach] == ["expense"]
    assert "to an expense" in attach[0].text   # the article follows the word (was "a expense")
    [(status, reqs)] = _clause_reqs(spec)
    assert status == "mapped" and attach[0].id in reqs
    assert not [r for r in spec.requirements if r.capability == "unsupported"]


def test_a_csv_import_of_contacts_gives_contacts_csv_import_not_a_csv_export():
    spec = parse_request(CONTACTS_CSV)
    contact = spec.entity("contact")
    assert contact.csv_import == 1000
    imports = [r for r in spec.requirements if r.capability == "import"]
    assert [r.entity for r in imports] == ["contact"]
    assert not spec.features, "importing from a CSV file is no CSV export"
    [(status, reqs)] = _clause_reqs(spec)
    assert status == "mapped" and imports[0].id in reqs


def test_a_calendar_of_upcoming_jobs_places_jobs_on_a_date_and_maps_the_clause():
    spec = parse_request(JOB_CALENDAR)
    job = spec.entity("job")
    dated = {f.ident: f.kind for f in job.fields}
    assert job.calendar == "date" and dated["date"] == "date"
    calendar = [r for r in spec.requirements if r.capability == "calendar"]
    assert [r.entity for r in calendar] == ["job"]
    [(status, reqs)] = _clause_reqs(spec)
    assert status == "mapped" and calendar[0].id in reqs


def test_a_calendar_uses_the_records_own_date_field():
    spec = parse_request("Jobs with a title and a due date; I see my jobs in a calendar view.")
    job = spec.entity("job")
    assert job.calendar == "due_date" and [f.ident for f in job.fields].count("due_date") == 1
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


def test_an_upload_naming_no_record_among_several_is_not_built():
    spec = parse_request("Expenses and categories. Users can attach files.")
    assert not any(e.attachment_types for e in spec.data_model)
    assert [c.status for c in spec.clauses] == ["mapped", "not_built"]
    assert "names no record" in spec.clauses[1].reason


def test_taking_a_photo_stays_not_built_with_the_camera_reason():
    spec = parse_request("Expenses with an amount. Register each expense by taking a receipt photo.")
    assert not any(e.attachment_types for e in spec.data_model)
    assert spec.clauses[1].status == "not_built" and "no camera" in spec.clauses[1].reason


def test_a_calendar_month_is_a_period_not_a_calendar():
    spec = parse_request("Expenses with an amount and a date; totals per calendar month.")
    assert not any(e.calendar for e in spec.data_model)


@pytest.mark.slow
@pytest.mark.parametrize(("request_text", "module"), [(EXPENSE_PHOTOS, "attachments.py"),
                                                      (CONTACTS_CSV, "csv_import.py"),
                                                      (JOB_CALENDAR, "calendar_view.py")])
def test_builder_new_builds_the_request_complete_with_its_record_tool(tmp_path, request_text, module):
    """A real `builder new` (subprocess, offline): every requirement PASS, the tool's module built.
    The CSV request caught test_one_column_csv_import_test_refuses_a_bad_row_bug_blank_row_skipped."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "HARNESS_"))}
    proc = subprocess.run([sys.executable, "-m", "harness.cli", "new", request_text, "--runs-dir",
                           str(tmp_path / "runs"), "--run-id", "tool", "--json", "--no-audit"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-2000:]
    data = json.loads(proc.stdout)
    assert data["status"] == "BUILD COMPLETE"
    assert {r["status"] for r in data["requirements"]} == {"PASS"}
    assert list((tmp_path / "runs" / "tool").rglob(f"src/{module}"))


def test_an_upload_that_names_no_record_is_not_built_even_with_one_record():
    spec = parse_request("An app to manage recipes. Users can upload a file.")
    assert not spec.entity("recipe").attachment_types
    assert spec.clauses[1].status == "not_built"


def test_import_and_export_as_csv_gives_both_the_import_and_the_export():
    spec = parse_request("A contacts app where I can import and export contacts as CSV.")
    assert spec.entity("contact").csv_import == 1000
    assert [(f.kind, f.entity) for f in spec.features] == [("csv_export", "contact")]
    assert [c.status for c in spec.clauses] == ["mapped"]
