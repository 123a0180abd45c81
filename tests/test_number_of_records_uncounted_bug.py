"""Stranger trial 2026-12-08j F4 (n02): "Show the number of expenses per category." was reported
built with "number" credited to the kind of the amount field (`kind of expense.amount`) and no count
anywhere: no totals, no counts, no dashboard. "number of / count of <records>" asks for a count,
realised only by an element counting those records (a totals, counts or period summary feature of
them, or the dashboard), and "per <record>" only by a grouping by it (accounting/grouping_asks.py)."""

from __future__ import annotations

from harness.models.spec import AppSpec, DataEntity, EntityField, Feature, Requirement
from harness.offline.accounting.account import account_text
from tests.spec_golden import spec_document


def _spec(*features: Feature) -> AppSpec:
    return AppSpec(title="Expenses", data_model=[
        DataEntity(name="expense", plural="expenses", ident="expense",
                   fields=[EntityField(name="amount", ident="amount", kind="money", type="float"),
                           EntityField(name="category", ident="category", kind="enum", enum_values=["food", "rent"])])],
        features=list(features), requirements=[Requirement(id="REQ-001", text="crud", capability="crud")])


def test_the_number_of_expenses_per_category_is_not_built_bug():
    doc = spec_document("The app manages expenses with an amount and a category. "
                        "Show the number of expenses per category.")
    clause = doc["clauses"][1]
    assert clause["status"] == "not_built" and clause["unaccounted"] == ["number of", "per category"]


def test_a_count_of_records_is_realised_by_a_counting_element_only_bug():
    assert account_text("Show the number of expenses.", _spec()).unaccounted == ["number of"]
    counted = account_text("Show the number of expenses.", _spec(Feature(kind="aggregate", entity="expense")))
    assert counted.unaccounted == [] and counted.words["number"].startswith("feature aggregate")
    per = "Show the count of expenses per category."
    assert account_text(per, _spec(Feature(kind="aggregate", entity="expense"))).unaccounted == ["per category"]
    assert account_text(per, _spec(Feature(kind="status_counts", entity="expense", fields=["category"]))
                        ).unaccounted == []
