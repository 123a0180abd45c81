"""Stranger trial req2 r4 (recipe book): "My project will be a recipe book application ..." with
"add to my recipe book" and "the recipes in my book" made a `book` record, the required parent of
every recipe — the app's own name read as a record. A book (journal, album) right before an app head,
after a word the request also names in the plural ("recipe" beside "recipes"), is the app that
collects those records: every mention of it is context, never a record. A request about books
("A book tracker app", "A library book app. Members borrow books.") keeps its book record."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request

RECIPE_BOOK = (
    "My project will be a recipe book application that organizes and stores all the recipes added to it.\n"
    "- As a user, I want to search or view a list of the current recipes in my book\n"
    "- As a user, I want to sort the recipes by categories.\n"
)


@pytest.mark.parametrize("request_text, records", [
    (RECIPE_BOOK, ["recipe"]),
    ("A recipe journal application. Users sort the recipes by categories.", ["recipe"]),
    ("A photo album app. Users add photos to albums with a caption.", ["photo"]),
])
def test_the_apps_book_of_records_is_no_record_bug(request_text, records):
    spec = parse_request(request_text)
    assert sorted(e.name for e in spec.data_model) == records
    assert all(getattr(e, "parent", None) is None for e in spec.data_model)


@pytest.mark.parametrize("request_text", [
    "A book application. Users sort the recipes by categories.",
    "A library book app. Members borrow books.",
    "A book tracker app. Users add books with a title.",
])
def test_a_book_the_request_is_about_stays_a_record(request_text):
    assert "book" in {e.name for e in parse_request(request_text).data_model}
