"""#48, fresh-request trial 2026-12-07: stray tokens that made a built clause not built (D4, D6) and
the "insert" verb of r2 — each with a regression test named after the bug."""

from __future__ import annotations

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request
from harness.offline.spec.clauses import split_clauses

HABIT = ("Log occurrences of a habit with a date. Users add occurrences of a habit "
         "(ex. \"3 glasses of water\").")


def test_bug_ex_ended_a_sentence():
    text = "Log occurrences of a habit by quantity (ex. number of water glasses a day). Users add habits."
    assert split_clauses(text) == ["Log occurrences of a habit by quantity (ex. number of water glasses a day).",
                                   "Users add habits."]


def test_bug_e_g_and_quoted_example_values_were_unknown_words():
    spec = parse_request(HABIT + " Each habit has a title (e.g., \"Drink water\", \"Walk\").")
    second, third = spec.clauses[1], spec.clauses[2]
    assert second.status == "mapped" and second.unaccounted == [], second.reason
    assert third.status == "mapped" and third.unaccounted == [], third.reason
    assert second.words["glasses"] == "an example value" and second.words["ex"] == "an example value"
    # an unquoted example may name what is asked: it is still accounted like any other words
    assert "CSV" in account_text("Users can keep habits in a format (e.g., CSV).", spec).unaccounted


def test_bug_list_letters_b_to_k_were_unknown_words():
    text = ("With respect to owners the system shall: a) Store first name, last name and email address. "
            "h) Allow owners to be added. j) Allow owners to be edited.")
    assert split_clauses(text) == ["With respect to owners the system shall: Store first name, last name and email address.",
                                   "Allow owners to be added.", "Allow owners to be edited."]
    spec = parse_request(text)
    assert [c.status for c in spec.clauses] == ["mapped", "mapped", "mapped"], [c.reason for c in spec.clauses]


def test_bug_insert_was_not_a_create_verb():
    spec = parse_request("Users can log habits with a title. The users should be able to insert, delete, update "
                         "and view their habits.")
    assert spec.clauses[1].status == "mapped" and spec.clauses[1].words["insert"].startswith("crud ")


def test_bug_besides_became_a_record():
    spec = parse_request("Register a pet with name and birthdate. Besides: Pet needs an unique id")
    assert [e.name for e in spec.data_model] == ["pet"] and "Beside" not in spec.title


def test_bug_register_a_pet_was_refused_for_register():
    spec = parse_request("Register a pet with name and birthdate.")
    assert spec.clauses[0].status == "mapped" and spec.clauses[0].words["register"].startswith("crud ")
    assert not spec.auth
    # signing up stays the login's word: without accounts "register an account" is not built
    assert "register" in parse_request("Users register an account. Users add pets with a name.").clauses[0].words


def test_bug_to_their_inventory_dropped_the_field_list():
    spec = parse_request("A user must be able to add items to their inventory with details such as name, "
                         "category, quantity and notes.")
    assert [f.name for f in spec.data_model[0].fields] == ["name", "category", "quantity", "notes"]
    assert spec.clauses[0].status == "mapped"


def test_bug_single_and_later_left_built_clauses_not_built():
    spec = parse_request("As a user I want to create an event with a title. As a user I want to view the details "
                         "for a single event. I should be able to view and edit the event details later.")
    assert [c.status for c in spec.clauses] == ["mapped", "mapped", "mapped"], [c.reason for c in spec.clauses]
    # "single" is "one" only before a record type
    assert account_text("a single bed", spec).unaccounted == ["single bed"]
