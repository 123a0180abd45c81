"""Stranger trial 2026-12-08k B14 (false PASS): "Each book shows the average rating of its reviews"
was reported built over a stored field `average_rating` anyone may set (two reviews, the value null;
PUT 1 kept 1). An average of other records is realised only by a counting element, never by a
stored field's name; a plain "average rating" field the user enters stays a field."""

from __future__ import annotations

from tests.spec_golden import spec_document

REQUEST = ("An app to manage books and reviews. Each review has a rating from 1 to 5 and belongs to a book. "
           "Each book shows the average rating of its reviews.")


def test_an_average_of_other_records_over_a_stored_field_is_not_built_bug():
    clause = spec_document(REQUEST)["clauses"][-1]
    assert clause["status"] == "not_built" and "average" in clause["unaccounted"]


def test_an_entered_average_stays_a_field():
    assert [c["status"] for c in spec_document("Books have a title and an average rating.")["clauses"]] == ["mapped"]
