"""Found building a public request offline (labcatscoding.com's "Workout Generator Func Spec":
accounts for every user; "create new workouts, save and log their workouts, and look back on any
workouts they've saved"; "rate the workouts they do and leave comments on their workouts"; "the
workout log can be organized by time or rating"). Offline, "they've" stopped a clause, "rate the
workouts" read as "manage them" and built no rating, "organized by time or rating" counted as
built with no order at all, "sorted by ... rating" passed with no rating column, and "leave
comments on" was not understood. Each test is named after the bug."""

from __future__ import annotations

import pytest

from harness.offline.spec.rules import rule_based_spec

WORKOUT_LOG = ("A website where users create accounts and log in. Users can create new workouts, save and "
               "log their workouts, and look back on any workouts they've saved. Users can rate the "
               "workouts they do and leave comments on their workouts in their log. The workout log can "
               "be organized by time or rating.")


def entity(spec, name):
    return next(e for e in spec.data_model if e.name == name)


def statuses(spec):
    return [c.status for c in spec.clauses]


@pytest.mark.parametrize("text", [
    "Users can create workouts and look back on any workouts they've saved.",
    "Users can create workouts and look back on any workouts they’ve saved.",
    "We're building a site where users can create workouts.",
])
def test_a_pronoun_contraction_no_longer_stops_its_clause_bug(text):
    spec = rule_based_spec(text)
    assert statuses(spec) == ["mapped"] and [e.name for e in spec.data_model] == ["workout"]


def test_rating_a_record_builds_a_one_to_five_rating_not_just_crud_bug():
    spec = rule_based_spec("Users can create workouts and rate the workouts they do.")
    rating = next(f for f in entity(spec, "workout").fields if f.ident == "rating")
    assert (rating.type, rating.min_value, rating.max_value) == ("int", 1, 5)
    assert statuses(spec) == ["mapped"]
    # the noun keeps its meaning: an hourly rate is a number field, no rating
    paid = rule_based_spec("Users can create employees with an hourly rate.")
    assert "rating" not in {f.ident for f in entity(paid, "employee").fields}


def test_organized_by_time_or_rating_is_an_order_by_those_columns_bug():
    spec = rule_based_spec("Users can create workouts with a rating. The workout log can be organized by time or rating.")
    assert [(f.kind, f.entity, f.fields) for f in spec.features] == [("sort", "workout", ["rating"])]
    assert statuses(spec) == ["mapped", "mapped"]
    managing = rule_based_spec("Users can organize their tasks.")   # no "by": managing them, no order
    assert managing.features == [] and statuses(managing) == ["mapped"]
    for agent in ("Users can manage clubs and events organized by clubs.",
                  "Users can manage clubs and events organized by the clubs."):
        assert rule_based_spec(agent).features == []   # who organizes them, not an order


@pytest.mark.parametrize("text, record", [
    ("Users can create workouts. The workout log can be sorted by time or rating.", "workout"),
    ("Users can create books. Books can be filtered by rating.", "book"),
])
def test_a_passive_sort_or_filter_by_a_field_gives_the_record_that_field_bug(text, record):
    spec = rule_based_spec(text)
    assert "rating" in {f.ident for f in entity(spec, record).fields}
    assert [f.fields for f in spec.features] == [["rating"]] and statuses(spec) == ["mapped", "mapped"]


def test_sorting_by_a_field_the_record_lacks_is_not_built_bug():
    """ "sort them by rating" names no record after the verb, so no pass adds the column; "rating"
    reads as the verb "rate" to the accounting, which let the clause pass with no rating at all."""
    spec = rule_based_spec("Users can create tasks and sort them by rating.")
    assert "rating" not in {f.ident for f in entity(spec, "task").fields}
    assert statuses(spec) == ["not_built"] and "sort by rating" in spec.clauses[0].reason


def test_sorted_by_time_is_the_order_records_were_added_in():
    spec = rule_based_spec("Users can create books. Books can be sorted by date.")
    assert {f.ident for f in entity(spec, "book").fields} == {"title"}   # created_at sorts
    assert [(f.kind, f.fields) for f in spec.features] == [("sort", [])] and statuses(spec) == ["mapped", "mapped"]
    dated = rule_based_spec("Users can create tasks with a due date. Tasks can be sorted by due date.")
    assert statuses(dated) == ["mapped", "mapped"]
    active = rule_based_spec("Users can create tasks and sort tasks by date.")   # as before: a date field
    assert "date" in {f.ident for f in entity(active, "task").fields}
    assert [(f.kind, f.fields) for f in active.features] == [("sort", ["date"])]


@pytest.mark.parametrize("text, child, parent", [
    ("Users can create workouts. Users can leave comments on their workouts.", "comment", "workout"),
    ("Users can create products. Users can leave reviews on products.", "review", "product"),
    ("Users can create tasks. Users can add comments to tasks.", "comment", "task"),
])
def test_comments_left_on_a_record_belong_to_it_bug(text, child, parent):
    spec = rule_based_spec(text)
    assert entity(spec, child).parent == parent and statuses(spec) == ["mapped", "mapped"]


def test_the_workout_log_request_builds_everything_it_asks_for_bug():
    spec = rule_based_spec(WORKOUT_LOG)
    assert spec.auth and statuses(spec) == ["mapped"] * 4
    workout = entity(spec, "workout")
    assert "rating" in {f.ident for f in workout.fields} and entity(spec, "comment").parent == "workout"
    assert [(f.kind, f.entity, f.fields) for f in spec.features] == [("sort", "workout", ["rating"])]
