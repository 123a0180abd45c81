"""Stranger trial 2026-12-07j n05: "The app manages tables and bookings." stopped at the spec stage
with "no data entity recognized in the request; name what the app manages" — "tables" is UI
vocabulary (an HTML table), and the list failed with it. With a booking word in the request, tables
are the restaurant's tables: records."""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec.rules import rule_based_parse


@pytest.mark.parametrize("request_text, records", [
    ("The app manages tables and bookings.", ["table", "booking"]),
    ("Guests reserve tables. Each reservation has a date and a number of people.", ["reservation", "table"]),
])
def test_tables_people_book_are_records_bug(request_text, records):
    assert sorted(rule_based_parse(request_text).entities) == sorted(records)


def test_a_database_table_in_a_book_app_stays_no_record():
    p = rule_based_parse("Users write reviews for books. The review is saved to the Reviews table.")
    assert "table" not in p.entities


def test_a_table_on_a_page_stays_no_record():
    with pytest.raises(SpecError):
        rule_based_parse("Show everything in a table with sortable columns.")
    assert rule_based_parse("A todo app. Show tasks in a table with a title.").entities == ["todo"]
