"""Stranger trial 2026-12-08j F2 (m02): "The app manages expenses with an amount and a category.
Show the total amount per category." built an `aggregate` with no `group_by` — one grand total,
`GET /api/expenses/totals?group_by=category` 422 — and reported the clause built: "per" was a
function word and "category" the field. A total or count "per <field or record>" is realised only by
an element grouping by it (an aggregate's `group_by`, a status_counts of that choice field);
otherwise "per category" is named, not built (accounting/grouping_asks.py)."""

from __future__ import annotations

import pytest

from harness.models.spec import AppSpec, DataEntity, EntityField, Feature, Requirement
from harness.offline.accounting.account import account_text
from tests.spec_golden import spec_document


def _expenses(**options) -> AppSpec:
    return AppSpec(title="Expenses", data_model=[DataEntity(
        name="expense", plural="expenses", ident="expense",
        fields=[EntityField(name="amount", ident="amount", kind="money", type="float"),
                EntityField(name="category", ident="category", kind="enum", enum_values=["food", "rent"])])],
        features=[Feature(kind="aggregate", entity="expense", fields=["amount"], options=options)],
        requirements=[Requirement(id="REQ-001", text="crud", capability="crud")])


def test_a_total_per_a_text_field_is_not_built_bug():
    doc = spec_document("The app manages expenses with an amount and a category. Show the total amount per category.")
    clause = doc["clauses"][1]
    assert clause["status"] == "not_built" and clause["unaccounted"] == ["total", "per category"]


def test_a_total_per_field_is_realised_by_its_grouping_only_bug():
    text = "Show the total amount per category."
    assert account_text(text, _expenses()).unaccounted == ["per category"]
    grouped = account_text(text, _expenses(group_by="category"))
    assert grouped.unaccounted == [] and grouped.words["per"].startswith("feature aggregate on expenses grouped by")
    assert account_text("Show the total amount for each category.", _expenses()).unaccounted == ["for each category"]
    assert account_text("Show the total amount.", _expenses()).unaccounted == []


ENUM = "The app manages expenses with an amount and a category (food, rent). Show the total amount per category."


def test_a_total_per_a_choice_field_is_grouped_by_it_bug():
    doc = spec_document(ENUM)
    assert doc["features"] == [{"kind": "aggregate", "entity": "expense", "fields": ["amount"],
                                "options": {"group_by": "category"}}]
    assert [c["status"] for c in doc["clauses"]] == ["mapped", "mapped"]
    text = spec_document("The app manages expenses with an amount and a category. Show the total amount per category.")
    assert "no choice field" in text["clauses"][1]["reason"]   # a text field: not built, saying why


@pytest.mark.slow
def test_the_totals_per_category_over_http(tmp_path):
    from tests.test_accounted_records_served import _call, _serve

    _spec, app = _serve(ENUM, tmp_path)
    with app as base:
        for amount, category in ((10, "food"), (5.5, "food"), (20, "rent")):
            assert _call("POST", base + "/api/expenses", {"amount": amount, "category": category})[0] == 201
        status, totals = _call("GET", base + "/api/expenses/totals")
        assert status == 200 and totals["sums"]["amount"] == 35.5
        groups = {value: g["sums"]["amount"] for value, g in totals["groups"].items()}
        assert groups == {"food": 15.5, "rent": 20}
