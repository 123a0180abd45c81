"""Stranger trial 2026-12-08j F2 (m02): "The app manages expenses with an amount and a category.
Show the total amount per category." built an `aggregate` with no `group_by` — one grand total,
`GET /api/expenses/totals?group_by=category` 422 — and reported the clause built: "per" was a
function word and "category" the field. A total or count "per <field or record>" is realised only by
an element grouping by it (an aggregate's `group_by`, a status_counts of that choice field);
otherwise "per category" is named, not built (accounting/grouping_asks.py)."""

from __future__ import annotations

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
    assert clause["status"] == "not_built" and clause["unaccounted"] == ["per category"]


def test_a_total_per_field_is_realised_by_its_grouping_only_bug():
    text = "Show the total amount per category."
    assert account_text(text, _expenses()).unaccounted == ["per category"]
    grouped = account_text(text, _expenses(group_by="category"))
    assert grouped.unaccounted == [] and grouped.words["per"].startswith("feature aggregate on expenses grouped by")
    assert account_text("Show the total amount for each category.", _expenses()).unaccounted == ["for each category"]
    assert account_text("Show the total amount.", _expenses()).unaccounted == []
