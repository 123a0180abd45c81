"""Tolerant clause accounting (#13): words that only qualify what another rule recognised do
not fail their clause; the same words elsewhere, and any other unknown word, still do."""

from __future__ import annotations

from harness.offline.spec.rules import rule_based_spec


def _status(request: str, part: str) -> str:
    spec = rule_based_spec(request)
    return next(c.status for c in spec.clauses if part in c.text)


def test_a_referential_modifier_before_a_record_asks_for_nothing():
    req = "An app to manage transactions. Users can edit an existing transaction. Users can edit an encrypted transaction."
    assert _status(req, "existing") == "mapped"
    assert _status(req, "encrypted") == "not_built"


def test_the_domain_word_of_a_list_preamble_is_framing():
    req = "Create a budgeting app that supports the following user stories:\n- add transactions\n- list transactions"
    assert all(c.status != "not_built" for c in rule_based_spec(req).clauses)
    assert _status("An app to manage transactions. Create a budgeting app that syncs.", "syncs") == "not_built"


def test_the_audience_of_an_app_for_people_to_do_something_is_context():
    assert _status("an app for teachers to keep track of their students", "teachers") == "mapped"


def test_a_ui_behaviour_verb_counts_only_in_a_clause_about_a_ui_element():
    req = "An app to manage classes. A button that triggers a modal to add classes. The app triggers alarms."
    assert _status(req, "button") == "mapped"
    assert _status(req, "alarms") == "not_built"


def test_a_column_word_after_a_record_with_that_column_is_the_column():
    req = "Recipes have a title and a description. Users click a recipe title to view the recipe."
    assert _status(req, "click") == "mapped"
    assert _status("Recipes have a title. Users click a recipe colour to view the recipe.", "click") == "not_built"


def test_a_search_bar_is_the_search_and_its_query_words_belong_to_it():
    req = ("Recipes have a title. Implement a search bar where users can type the name of a recipe. "
           "On entering a search query, show the recipes that\nmatch the query.")
    assert all(c.status != "not_built" for c in rule_based_spec(req).clauses)
    assert _status("Recipes have a title. Users can add recipes. Show the query.", "query") == "not_built"


def test_the_name_of_a_record_without_a_display_column_is_not_understood():
    assert _status("Recipes have a colour. Users can type the name of recipes.", "type") == "not_built"
    # "the name of a recipe" names a field of one recipe (#14 genitive fields): built, so mapped
    spec = rule_based_spec("Recipes have a colour. Users can type the name of a recipe.")
    assert "name" in [f.name for f in spec.entity("recipe").fields] and spec.clauses[1].status == "mapped"


def test_the_domain_word_after_a_record_in_a_list_preamble_is_framing():
    req = "A property rental application management platform that allows:\n- owners to add properties"
    assert _status(req, "platform") != "not_built"


def test_where_the_data_is_kept_asks_for_nothing_more_than_storing_it():
    req = "An app to manage recipes. The recipes may be kept in a JSON file. Users can upload a file."
    assert _status(req, "kept") != "not_built"
    assert _status(req, "upload") == "not_built"


def test_a_technology_heading_is_framing_and_its_stack_is_not_built():
    spec = rule_based_spec("An app to manage recipes.\n\nTechnologies:\n- Backend: PHP")
    assert [c.status for c in spec.clauses] == ["mapped", "context", "not_built"]
