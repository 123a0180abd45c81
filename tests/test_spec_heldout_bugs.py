"""Parser bugs found on the fresh held-out requests (tests/data/requests 41-47), each fixed by a
general rule; the requests here are written for the test, not copied from the data set."""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec.clauses import split_clauses
from harness.offline.spec.rules import rule_based_spec
from harness.validation.clause_check import clause_errors


def test_available_without_registration_and_login_does_not_turn_on_auth_bug():
    spec = rule_based_spec("An app for managing notes with a title. "
                           "The application is available without registration and login.")
    assert spec.auth is False
    clause = next(c for c in spec.clauses if c.text.startswith("The application is available"))
    assert clause.status == "context"


@pytest.mark.parametrize("text", ["Users don't need to log in.", "There is no need for user accounts.",
                                  "It doesn't require registration or login."])
def test_negated_login_words_are_no_auth_bug(text):
    assert rule_based_spec(f"Track expenses with an amount. {text}").auth is False


def test_login_without_a_negation_still_turns_on_auth():
    assert rule_based_spec("Track expenses with an amount. Users log in to see their expenses.").auth is True


def test_wont_contraction_is_no_entity_bug():
    with pytest.raises(SpecError):   # nothing left to build: "won’t" ("wont") was an entity
        rule_based_spec("Users won’t have the luxury of tapping screens or pressing buttons.")
    spec = rule_based_spec("Manage orders with a total. Customers can't have the luxury of waiting.")
    assert [e.name for e in spec.data_model] == ["order"]


def test_vietnamese_chi_tiet_is_details_not_an_expense_entity_bug():
    spec = rule_based_spec("Ứng dụng quản lý công việc.\n- Xem chi tiết công việc")
    assert [e.name for e in spec.data_model] == ["task"]
    assert "expense" in [e.name for e in rule_based_spec("Quản lý các khoản thu, chi.").data_model]


def test_a_game_with_slot_machines_has_no_machine_entity_bug():
    for text in ("Develop an online slot game with 10 slot machines all unique and themed.",
                 "An online slot game with slot machines and jackpots."):
        with pytest.raises(SpecError):
            rule_based_spec(text)
    spec = rule_based_spec("A tracker with players and matches.")   # an app head still lists its records
    assert {e.name for e in spec.data_model} == {"player", "match"}


def test_html_tagged_lines_are_plain_text_clauses_bug():
    request = ("<h1>STUDENT LIST APP</h1>\n<h2>1. OVERVIEW</h2>\n"
               "<li><b>Main feature:</b> manage students with a <i>name</i> and a number</li></br>")
    assert split_clauses(request) == ["STUDENT LIST APP", "OVERVIEW",
                                      "Main feature: manage students with a name and a number"]
    spec = rule_based_spec(request)
    assert not any("<" in c.text for c in spec.clauses)
    assert clause_errors(spec, request) == []   # the clause check reads the same plain text


def test_angle_brackets_in_prose_are_not_markup():
    assert split_clauses("Show tasks where a <b and c> d. Use x<5 items") == [
        "Show tasks where a <b and c> d.", "Use x<5 items"]


def test_key_columns_id_and_category_id_are_no_entities_bug():
    spec = rule_based_spec("Users can create notes and filter them by category.\n"
                           "CATEGORY\nid (PK)\nname\nNOTE\nid (PK)\ntitle\ncategory_id (FK)")
    names = [e.name for e in spec.data_model]
    assert "id" not in names and "category_id" not in names and "note" in names
    assert not any('"id"' in c.reason for c in spec.clauses)   # every record has its id: nothing asked
