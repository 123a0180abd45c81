"""Stranger trial 2026-12-07i O4 (false PASS d6, g3): "Log an expense with an amount, a description
and the person that paid" gave the expense a yes/no field "person paid" and no link to the person
record — BUILD COMPLETE, `person_paid: true`. A relative clause after a record in a field list ends
the item: the record is linked, and the clause's words ("that paid") are realised by that link (the
accounting, relation_asks.py); without the link they stay unaccounted."""

from __future__ import annotations


import pytest

from harness.offline.spec import parse_request
from tests.spec_golden import spec_document

EXPENSES = "Add people with a name. Log an expense with an amount, a description and the person that paid."


@pytest.mark.parametrize("request_text, record, linked", [
    (EXPENSES, "expense", "person"),
    ("Members have a name. Each booking has a date and the member who made it.", "booking", "member"),
    ("Employees have a name. Record a sale with an amount, the employee that sold it and a date.", "sale", "employee"),
])
def test_a_record_with_a_relative_clause_is_linked_and_the_clause_built_bug(request_text, record, linked):
    doc = spec_document(request_text)
    entity = next(e for e in doc["data_model"] if e["name"] == record)
    refs = {entity.get("parent")} | {f.get("ref") for f in entity["fields"]}
    assert linked in refs and not any(f["kind"] == "boolean" for f in entity["fields"])
    assert [c["status"] for c in doc["clauses"]] == ["mapped", "mapped"]


def test_the_clause_words_stay_unaccounted_without_the_record():
    doc = spec_document("Log an expense with an amount and the person that paid.")
    assert doc["clauses"][0]["status"] == "not_built" and "paid" in doc["clauses"][0]["unaccounted"]


@pytest.mark.slow
def test_an_expense_names_who_paid_over_http(tmp_path):
    from helpers import write_files
    from served_app import json_call as _call, served

    from harness.agents.spec_agent import postprocess
    from harness.offline.generator import generate_files

    ws = write_files(generate_files(postprocess(parse_request(EXPENSES))), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        status, ann = _call(base, "POST", "/api/people", {"name": "Ann"})
        assert status == 201
        assert _call(base, "POST", "/api/expenses", {"amount": 12.5, "description": "lunch", "person_id": ann["id"]})[0] == 201
        assert _call(base, "POST", "/api/expenses", {"amount": 3, "description": "tea", "person_id": 999})[0] == 404
        status, paid = _call(base, "GET", f"/api/people/{ann['id']}/expenses")
        assert status == 200 and [e["description"] for e in paid] == ["lunch"]
