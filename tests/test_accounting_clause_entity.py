"""#48 defect 2: a word is credited to an element of the thing its clause is about. Before, the
accounting credited a word to the first spec element holding it, so "name" in a clause about a
manufacturer was "built" by product.name although the manufacturer had no name field, and
spec.json named the wrong element as the reason."""

from __future__ import annotations

from harness.models.spec import AppSpec, DataEntity, EntityField
from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request


def _spec(*entities: tuple[str, list[str]]) -> AppSpec:
    return AppSpec(title="Shop", data_model=[
        DataEntity(name=name, plural=name + "s", ident=name,
                   fields=[EntityField(name=f, ident=f.replace(" ", "_")) for f in fields])
        for name, fields in entities])


def test_a_field_word_of_another_record_does_not_build_the_clause_entity_bug():
    spec = _spec(("product", ["name", "price"]), ("manufacturer", ["country"]))
    acc = account_text("Each manufacturer has a name and a country", spec)
    assert acc.unaccounted == ["name"]
    assert acc.words["country"] == "field manufacturer.country"


def test_a_field_word_is_credited_to_the_record_the_clause_names_bug():
    spec = _spec(("product", ["name", "price"]), ("manufacturer", ["name", "country"]))
    assert account_text("Each manufacturer has a name", spec).words["name"] == "field manufacturer.name"
    assert account_text("Each product has a name", spec).words["name"] == "field product.name"


def test_an_owner_word_before_the_field_decides_among_the_named_records():
    spec = _spec(("product", ["name", "price"]), ("manufacturer", ["country"]))
    acc = account_text("Each product shows the manufacturer name", spec)
    assert acc.unaccounted == ["name"]
    both = _spec(("product", ["name"]), ("manufacturer", ["name"]))
    assert account_text("Each product shows the manufacturer's name", both).words["name"] == "field manufacturer.name"
    assert account_text("Each product shows the name of its manufacturer", both).words["name"] == \
        "field manufacturer.name"


def test_a_field_named_after_another_record_still_counts_for_its_own_record():
    spec = _spec(("product", ["name"]), ("order", ["product name", "quantity"]))
    acc = account_text("Each order has a product name and a quantity", spec)
    assert acc.unaccounted == [] and acc.words["name"] == "field order.product name"


def test_a_clause_naming_no_record_credits_any_record():
    spec = _spec(("product", ["name", "price"]), ("manufacturer", ["country"]))
    acc = account_text("Show the name and the price", spec)
    assert acc.unaccounted == [] and acc.words["name"] == "field product.name"


def test_spec_json_names_the_field_of_the_record_the_clause_is_about_bug():
    spec = parse_request("Track products with a name and a price. Each product has a manufacturer. "
                         "Each manufacturer has a name and a country.")
    words = AppSpec.model_validate_json(spec.model_dump_json()).clauses[0].words
    assert words["name"] == "field product.name" and words["products"] == "entity product"
