"""A collective word listed among record types is a record type (the pass "list collectives",
rows of harness/offline/spec/patterns/entity_introducers.jsonl). Found on a public recipe-app request (contra.com, "keeps track of all users'
recipes, ingredients, and inventory"): offline, inventory was dropped without a word and the
clause counted as built."""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec.rules import rule_based_spec


def _spec(request: str):
    spec = rule_based_spec(request)
    return {e.name for e in spec.data_model}, [c.status for c in spec.clauses]


@pytest.mark.parametrize("request_text", [
    "An app that keeps track of recipes, ingredients, and inventory.",
    "An app that keeps track of recipes, inventory and ingredients.",
    "An app that keeps track of recipes, ingredients, and inventory items.",
])
def test_inventory_listed_with_records_is_built_not_silently_dropped_bug(request_text):
    names, statuses = _spec(request_text)
    assert names == {"recipe", "ingredient", "inventory item"}
    assert statuses == ["mapped"]


@pytest.mark.parametrize("request_text, expected", [
    ("Build an inventory app for products and suppliers", {"product", "supplier"}),
])
def test_inventory_naming_the_kind_of_app_stays_no_record(request_text, expected):
    names, _ = _spec(request_text)
    assert names == expected


def test_an_inventory_naming_no_records_invents_none():
    """It made `product` records nobody named (an area -> record map, removed): no record type."""
    with pytest.raises(SpecError, match="no data entity"):
        rule_based_spec("Build a warehouse inventory tracker")
