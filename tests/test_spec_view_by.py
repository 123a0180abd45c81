"""Found on a public README (github.com/pondarshini/InventoryManagementSystem: "View orders by
status"): offline, the clause counted as built through the status the app gives orders (mark as
done) while the list could not be narrowed by status at all. "View <records> by <column>" is now
the filter it asks for, or not built when the column is none the app can filter by."""

from __future__ import annotations

import pytest

from harness.offline.spec.rules import rule_based_spec


@pytest.mark.parametrize("text", [
    "Users can create orders. View orders by status.",
    "Users can create orders with a status (pending, shipped, received). Users can view orders by status.",
])
def test_viewing_records_by_status_is_the_status_filter_bug(text):
    spec = rule_based_spec(text)
    assert [(f.kind, f.entity) for f in spec.features] == [("filter", "order")]
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


@pytest.mark.parametrize("text, phrase", [
    ("Users can create tasks. Users can view tasks by week.", "view by week"),
    ("Users can create books. Users can view books by rating.", "view by rating"),
])
def test_viewing_records_by_a_column_they_lack_is_not_built_bug(text, phrase):
    spec = rule_based_spec(text)
    assert spec.features == [] and spec.clauses[-1].status == "not_built" and phrase in spec.clauses[-1].reason


def test_viewing_all_records_is_no_filter():
    spec = rule_based_spec("Users can create books and view all books.")
    assert spec.features == [] and [c.status for c in spec.clauses] == ["mapped"]


@pytest.mark.parametrize("verb", ["view", "filter"])
def test_narrowing_records_by_another_record_links_them_to_it_bug(verb):
    """ "filter orders by customer" counted as built while orders had no customer at all (the list
    could only be narrowed by its own columns); the orders now belong to their customer
    (`?customer_id=`), as "each order belongs to a customer" says."""
    spec = rule_based_spec(f"Users can manage customers and orders. Users can {verb} orders by customer.")
    assert {e.name: e.parent for e in spec.data_model} == {"customer": None, "order": "customer"}
    assert [(f.kind, f.entity) for f in spec.features] == [("filter", "order")]
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


def test_narrowing_by_a_record_that_is_not_the_parent_is_not_built_bug():
    spec = rule_based_spec("Users can manage projects, teams and tasks. Each task belongs to a project. "
                           "Users can filter tasks by team.")
    assert {e.name: e.parent for e in spec.data_model}["task"] == "project"
    assert spec.clauses[-1].status == "not_built" and "filter by team" in spec.clauses[-1].reason
    kept = rule_based_spec("Users can manage projects and tasks. Each task belongs to a project. "
                           "Users can view tasks by project.")
    assert [c.status for c in kept.clauses] == ["mapped"] * 3 and kept.features[0].kind == "filter"
