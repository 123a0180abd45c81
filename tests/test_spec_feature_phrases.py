"""Feature asks in other words than the registry's triggers, and the booking words (the passes "keyword
search", "overview totals", "newest first", "persistence" of spec/patterns/features.jsonl, booking.py, the "its" relation): each is built when the generator builds it, and
its clause is marked not built (with the reason) when it does not."""

from __future__ import annotations

import pytest

from harness.offline.features import feature_of_text
from harness.offline.spec.patterns import pass_patterns
from harness.offline.spec.rules import rule_based_spec


def _clause(spec, start: str):
    return next(c for c in spec.clauses if c.text.startswith(start))


def _features(spec) -> list[tuple[str, str | None]]:
    return [(f.kind, f.entity) for f in spec.features]


def test_its_children_after_a_parent_in_the_clause_belong_to_that_parent():
    spec = rule_based_spec("Teachers manage classes and students.\n"
                           "- on click a class, go to its page, where its students are listed")
    assert spec.entity("student").parent == spec.entity("class_item").ident
    assert any(r.capability == "relation" and r.entity == "student" for r in spec.requirements)


def test_its_with_two_possible_owners_is_no_relation():
    spec = rule_based_spec("Manage projects and teams and students. A project or a team shows its students.")
    assert spec.entity("student").parent is None


def test_booking_a_resource_links_the_booking_record_to_it():
    spec = rule_based_spec("Users can book tennis courts. Each court has a name and an address. "
                           "A booking has a date and a time.")
    assert spec.entity("booking").parent == "court"


def test_book_as_a_noun_is_no_booking_relation():
    spec = rule_based_spec("Manage books and bookings. A booking has a date.")
    assert spec.entity("booking").parent is None


def test_available_resources_give_no_double_booking_and_say_the_free_list_is_not_built():
    spec = rule_based_spec("Users can book tennis courts. A booking has a date and a time.\n"
                           "- A list of available courts with their address")
    assert ("no_double_booking", "booking") in _features(spec)
    clause = _clause(spec, "A list of available courts")
    assert clause.status == "not_built" and "available at a chosen date and time is not built" in clause.reason
    assert any(r.capability == "feature" and r.entity == "booking" and r.id in clause.reqs for r in spec.requirements)


def test_available_without_a_booking_record_is_no_feature():
    spec = rule_based_spec("Manage courts with a name. Show a list of available courts.")
    assert not any(f.kind == "no_double_booking" for f in spec.features)


def test_filter_by_keywords_is_search_over_the_record():
    spec = rule_based_spec("Track expenses with a date and a category.\n"
                           "- User can filter expenses based on criteria such as date ranges, categories, "
                           "or specific keywords")
    assert ("search", "expense") in _features(spec)
    assert _clause(spec, "User can filter").status == "mapped"


def test_keywords_as_a_field_are_no_search():
    spec = rule_based_spec("Manage notes with a title and keywords.")
    assert not any(f.kind == "search" for f in spec.features)


def test_dashboard_overview_of_records_with_money_is_their_totals():
    spec = rule_based_spec("Track expenses with an amount and a date.\n"
                           "- A dashboard shows an overview of expenses")
    assert ("aggregate", "expense") in _features(spec)
    assert _clause(spec, "A dashboard shows").status == "mapped"


def test_dashboard_overview_without_a_number_field_is_no_totals():
    spec = rule_based_spec("Track tasks with a title.\n- A dashboard shows an overview of tasks")
    assert not any(f.kind == "aggregate" for f in spec.features)
    assert _clause(spec, "A dashboard shows").status == "mapped"


def test_selecting_records_with_a_checkbox_is_not_built_not_mapped_to_crud():
    spec = rule_based_spec("Manage books with a title and an author.\n"
                           "- Each card must include a checkbox that the user can select")
    clause = _clause(spec, "Each card")
    assert clause.status == "not_built" and clause.reason == pass_patterns("checkbox selection")[0]["action"]["block"]


def test_a_checkbox_to_mark_a_record_done_stays_the_complete_action():
    spec = rule_based_spec("A todo app for tasks.\n- For each task: a checkbox to mark it as completed")
    assert _clause(spec, "For each task").status == "mapped"


def test_basic_styling_maps_to_the_pages_requirement():
    spec = rule_based_spec("Track transactions with an amount and a date.\n- Some basic styling")
    pages = next(r.id for r in spec.requirements if r.capability == "pages")
    clause = _clause(spec, "Some basic styling")
    assert clause.status == "mapped" and pages in clause.reqs


@pytest.mark.parametrize("request_text, kind, entity", [
    ("An expense app: the user sees a list of all their expenses, newest first.", "newest_first", "expense"),
    ("A blog app to manage posts. Posts are shown with the most recent first.", "newest_first", "post"),
    ("An app to manage workouts. Workouts are listed newest to oldest.", "newest_first", "workout"),
    ("An app to manage notes. Show my notes in reverse chronological order.", "newest_first", "note"),
    ("An app to manage books. List the books with the latest ones first.", "newest_first", "book"),
    ("An app to manage expenses. Save all expenses so they persist after refresh and login.", "persistence",
     "expense"),
    ("A notes app: notes stay after a restart of the server.", "persistence", "note"),
    ("Users keep a list of books; books persist.", "persistence", "book"),
])
def test_newest_first_and_persistence_phrases_are_the_feature_and_their_clause_is_built(request_text, kind, entity):
    """Pennywise's "newest first" and "persist after refresh and login", in other words too
    (passes "newest first", "persistence" of spec/patterns/features.jsonl); "newest" and "persist" were read as record types before."""
    spec = rule_based_spec(request_text)
    assert (kind, spec.entity(entity).ident) in _features(spec)
    req = next(r for r in spec.requirements if r.capability == "feature" and feature_of_text(r.text) == kind)
    assert {"newest_first": "newest first", "persistence": "started afresh"}[kind] in req.acceptance
    assert all(c.status != "not_built" for c in spec.clauses), [(c.text, c.reason) for c in spec.clauses]
