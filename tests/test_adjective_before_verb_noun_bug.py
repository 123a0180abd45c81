"""A noun that is also a verb ("book", "log", "request") names a record after a determiner even
with adjectives between: "add a new book with title, author, and description".

Stranger trial h (c9): "As an admin, I want to add a new book with title, author, and description,
so that it appears in the catalog." stopped at the spec stage with "no data entity recognized in the
request" — while "add a book with …" and "add new books with …" built. A verb-noun was a noun only
right after a determiner, so "new" between them made "book" a verb and the field list had no record.
"""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


def _entities(request: str) -> dict[str, list[str]]:
    spec = parse_request(request)
    return {e.name: [f.name for f in e.fields] for e in spec.data_model if getattr(e, "fields", None) is not None}


@pytest.mark.parametrize("request_text, expected", [
    ("As an admin, I want to add a new book with title, author, and description, so that it appears in the catalog.",
     {"book": ["title", "author", "description"]}),
    ("Users can add a new book with title and author.", {"book": ["title", "author"]}),
    ("Members keep a daily log with a date and a mood.", {"log": ["date", "mood"]}),       # unnamed: other adjective
    ("Staff create an urgent request with a location and a date.", {"request": ["location", "date"]}),
])
def test_an_adjective_between_the_determiner_and_a_verb_noun_keeps_it_a_record_bug(request_text, expected):
    assert _entities(request_text) == expected


def test_the_verb_reading_stays_without_a_determiner():
    assert list(_entities("Users book new rooms with a name.")) == ["room"]
