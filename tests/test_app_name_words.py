"""The phrase that names the app ("a tool library app", "our office's booking system", "a recipe
catalog", "an app for my tool library") is the spec's title, and a place or kind word of it
(harness/offline/words/app_names_en.txt) is realised by that title — only inside the phrase.
An app's kind never invents records ("a library app" is no book app), and "items" names records."""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec import parse_request


def _unaccounted(spec) -> list[list[str]]:
    return [c.unaccounted for c in spec.clauses]


@pytest.mark.parametrize("request_text, title, word", [
    ("A tool library app with login. Members can add tools with a name and a description.", "Tool Library App", "library"),
    ("A recipe catalog. Recipes have a title and ingredients.", "Recipe Catalog", "catalog"),
    ("I want an app for my tool library. Tools have a name.", "Tool Library App", "library"),
    ("An inventory of items with a name, quantity and location", "Inventory", "inventory"),
])
def test_a_place_or_kind_naming_the_app_is_realised_by_the_title(request_text, title, word):
    """Before: "library", "catalog", "inventory" were unaccounted (BUILD FAILED on a word that only
    names the app) and "A tool library app" was titled "Tool App"."""
    spec = parse_request(request_text)
    assert spec.title == title
    assert _unaccounted(spec) == [[] for _ in spec.clauses]
    assert spec.clauses[0].words[word] == "the app's title"
    assert all(c.status == "mapped" for c in spec.clauses)


def test_a_place_word_of_the_naming_phrase_beside_an_activity_word():
    """ "agency" and "office's" name the app; "booking" asks for records (none here) and "agents"
    act: those stay unaccounted."""
    agency = parse_request("A property agency website where agents add properties with an address and a price.")
    assert agency.title == "Property Agency Website" and agency.clauses[0].unaccounted == ["agents"]
    office = parse_request("Our office's booking system: staff book rooms with a date and a time.")
    assert office.clauses[0].words["office's"] == "the app's title"
    assert "booking" in office.clauses[0].unaccounted and office.clauses[0].status == "not_built"


def test_a_place_word_outside_the_naming_phrase_stays_unaccounted():
    spec = parse_request("A tool library app. Tools have a name. Members borrow books from the library.")
    assert spec.clauses[0].unaccounted == []
    assert "library" in spec.clauses[2].unaccounted and spec.clauses[2].status == "not_built"


def test_an_activity_naming_the_app_is_no_kind_word():
    """ "A booking site for a tennis court" with courts only must not end built: "booking" is in the
    title but asks for booking records."""
    spec = parse_request("A booking site for a tennis court. Courts have a name.")
    assert spec.title == "Booking Site"
    assert spec.clauses[0].status == "not_built" and "booking" in spec.clauses[0].unaccounted


@pytest.mark.parametrize("request_text", [
    "A library app", "a blog", "an online shop", "a music app", "Build a warehouse inventory tracker",
])
def test_an_app_kind_alone_invents_no_records(request_text):
    """Before: an area -> record map made books, posts, products, songs nobody asked for."""
    with pytest.raises(SpecError, match="no data entity recognized"):
        parse_request(request_text)


def test_items_name_records():
    """Before: "items" was a UI word, never a record type: the inventory was read as `product`
    records with a name and a description, and "items", "quantity", "location" were unaccounted."""
    spec = parse_request("An inventory of items with a name, quantity and location")
    assert [(e.ident, [f.ident for f in e.fields]) for e in spec.data_model] == [
        ("item", ["name", "quantity", "location"])]


def test_an_item_named_with_its_record_and_pointed_back_at_stays_that_record():
    """ "an equipment item ... the fee for each item": "each item" points back at the equipment,
    it is no second record type (with "items" a record word, it had become one)."""
    spec = parse_request("Equipment has a type and a cost. Add an equipment item with a comment. "
                         "The fee for each item is fixed. These items need not be stored.")
    assert "item" not in {e.ident for e in spec.data_model}
