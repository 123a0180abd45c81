"""A stranger's personal inventory (trial req2 r1, 2026-12-07): beside the real `item` record the
parser built an `inventory item` record (an invented name only) from "view their inventory items",
and a `note` record (an invented title, no link to items) from "add notes to an item" although
notes is one of the item's listed details. Both records were reported built, while "add items to
their inventory", "delete items from their inventory" and "search the inventory by item name" were
reported not built for "inventory" and "item".

The invariants: a compound whose modifier is the app's collection ("inventory", "catalog", "list",
`collection_modifiers`) and whose head is a record type of the parse is that record type; a plural
noun whose whole word is a field of the record named in the same clause is that field, no record.
"""

from __future__ import annotations

from harness.offline.spec import parse_request

INVENTORY = (
    "A user must be able to add items to their inventory with details such as name, category, quantity, "
    "notes, and metadata. A user must be able to view their inventory items. A user should be able to "
    "delete items from their inventory. A user should be able to add notes to an item. The application "
    "could provide a search feature to search the inventory by item name.")


def _clause(spec, start: str):
    return next(c for c in spec.clauses if c.text.startswith(start))


def test_inventory_items_are_the_item_record_bug():
    spec = parse_request(INVENTORY)
    assert [e.name for e in spec.data_model] == ["item"]
    item = spec.data_model[0]
    assert [f.name for f in item.fields] == ["name", "category", "quantity", "notes", "metadata"]
    for start in ("A user must be able to add items", "A user must be able to view",
                  "A user should be able to delete", "The application could provide a search"):
        clause = _clause(spec, start)
        assert clause.status == "mapped", (start, clause.unaccounted)


def test_listed_notes_added_to_an_item_are_its_field_bug():
    clause = _clause(parse_request(INVENTORY), "A user should be able to add notes")
    assert clause.status == "mapped" and "notes" not in clause.unaccounted, clause.words


def test_a_compound_of_another_modifier_stays_its_own_record():
    spec = parse_request("Track items with a name and a price. Track orders with a date. "
                         "Each order has order items with a quantity.")
    assert {"order item", "item"} <= {e.name for e in spec.data_model}


def test_a_two_word_field_leaves_a_record_of_its_head():
    spec = parse_request("Recipes have a title and an average rating. Include ratings and recipe comments.")
    assert "rating" in {e.name for e in spec.data_model}
