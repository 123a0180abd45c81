"""General parser rules added for field fidelity: cancel keeps a record with a status, an action
noun before a field list gives the fields to the record before it, adjectives are no entities;
the fidelity matcher counts a status column the generator adds."""

from __future__ import annotations

from harness.fidelity import compare
from harness.offline.spec.rules import rule_based_spec


def _names(spec):
    return {e.name for e in spec.data_model}


def test_cancel_gives_the_record_a_cancel_workflow_and_the_clause_is_mapped():
    spec = rule_based_spec("An app to manage reservations. Users can add and cancel reservations.")
    ent = next(e for e in spec.data_model if e.name == "reservation")
    assert ent.workflow == ["active", "cancelled"]
    assert all(c.status != "not_built" for c in spec.clauses), [(c.text, c.reason) for c in spec.clauses]


def test_action_noun_before_field_list_gives_fields_to_the_record():
    spec = rule_based_spec("An app for recipes. Recipe creation with a title, description and difficulty.")
    assert "creation" not in _names(spec)
    recipe = next(e for e in spec.data_model if e.name == "recipe")
    assert {"title", "description", "difficulty"} <= {f.name for f in recipe.fields}
    assert all(c.status != "not_built" for c in spec.clauses)


def test_adjective_before_a_noun_is_no_entity():
    spec = rule_based_spec("A tracker for plants with a name and species. Counts are kept in persistent storage.")
    assert "persistent" not in _names(spec)


def test_fidelity_counts_status_of_a_workflow_entity():
    spec = rule_based_spec("A booking system for a gym. You can add bookings and cancel them.")
    item = {"id": "x", "request": "", "expected": {"entities": {"booking": ["status"]}, "features": [],
                                                   "outcome": "complete"}}
    assert compare(item, spec, "complete").fields == (1, 1)


def test_store_heading_bullets_are_fields_of_the_main_record_up_to_a_heading():
    spec = rule_based_spec("A web app to log repairs.\n\n## Features\n- Add / edit / delete repairs\n"
                           "- Categories of repairs\n\n## Data\nStore:\n- date\n- cost\n- category\n"
                           "- fixed by\n- vendor / supplier where applicable\n\n## Quality\n- fast")
    repair = next(e for e in spec.data_model if e.name == "repair")
    names = [f.name for f in repair.fields]
    assert {"date", "cost", "fixed by", "vendor", "supplier"} <= set(names)
    assert "quality" not in names and "fast" not in names


def test_parenthesised_kinds_are_a_type_enum_not_fields():
    spec = rule_based_spec("A depot app. Track shipments (inbound, outbound, repairs) and their dates.")
    assert "repair" not in _names(spec)
    shipment = next(e for e in spec.data_model if e.name == "shipment")
    kind = next(f for f in shipment.fields if f.name == "type")
    assert kind.enum_values == ["inbound", "outbound", "repair"]


def test_parenthesised_column_names_stay_fields():
    spec = rule_based_spec("An app to track books (title, author, price).")
    book = next(e for e in spec.data_model if e.name == "book")
    assert {"title", "author", "price"} <= {f.name for f in book.fields}


def test_fully_unbuildable_product_noun_after_for_is_no_entity():
    from harness.errors import SpecError
    import pytest
    with pytest.raises(SpecError):
        rule_based_spec("i want you to build an online 3d planner for furniture")


def test_a_run_of_column_words_without_commas_is_one_field_each():
    spec = rule_based_spec("Each member must have a set of attributes like name surname telephone number")
    member = next(e for e in spec.data_model if e.name == "member")
    assert [f.name for f in member.fields] == ["name", "surname", "telephone number"]
    spec = rule_based_spec("An app to track contacts with name email phone address")
    assert [f.name for f in spec.data_model[0].fields] == ["name", "email", "phone", "address"]


def test_fidelity_matches_an_entity_kept_in_the_users_own_spelling():
    from harness.fidelity import _same

    assert _same("advertisement", "advertisment") and _same("advertisement", "advertisments")
    assert not _same("booking", "bookings2") and not _same("category", "catalogue") and not _same("user", "users2")
    assert not _same("transaction", "transactions list")
