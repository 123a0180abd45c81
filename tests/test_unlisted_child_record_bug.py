"""Bug (stranger trial 2026-12-07d, R2 "Librarians can add copies of a book"; acct48 D1): a record the
request gives no fields at all but a parent — "Each book has copies" — got an invented required
`name`: POST {book_id} was a 422 and the requirement claimed "a missing name returns 422", a rule
nobody asked for. A copy of a book is told apart by its book and its id; it now gets no field of its
own. A record with no fields and no parent still gets a name or title (nothing else tells it apart).
The generated app is built and served: a copy is created with its parent key alone, and every
black-box check of the harness passes, the filter by book (its parent key, the copy's only column)
included."""

from __future__ import annotations

import json
import urllib.request

import pytest

from harness.agents.spec_agent import postprocess
from harness.offline.generator import generate_files
from harness.offline.spec import parse_request
from served_app import served

REQUEST = "Librarians can add books with a title. Each book has copies. Users can view copies by book."


def _fields(spec, name):
    return [(f.ident, f.required) for f in spec.entity(name).fields]


@pytest.mark.parametrize("request_text, child, parent", [
    (REQUEST, "copy", "book"),
    ("Librarians can add books with a title. Each book has instances.", "instance", "book"),
])
def test_a_child_record_without_fields_gets_no_invented_name_bug(request_text, child, parent):
    """A copy is an instance of its book, told apart by it (`instance_nouns` of words/word_classes.toml)."""
    spec = parse_request(request_text)
    assert spec.entity(child).parent == parent
    assert _fields(spec, child) == []
    crud = next(r for r in spec.requirements if r.entity == child and r.capability == "crud")
    assert "missing" not in crud.acceptance


@pytest.mark.parametrize("request_text, child, field", [
    ("Musicians can add albums with a title and a year. Each album has tracks.", "track", "name"),
    ("Teachers can create courses with a name. Each course has lessons.", "lesson", "title"),
])
def test_any_other_child_without_fields_gets_the_name_its_noun_implies(request_text, child, field):
    """Stranger trial 2026-12-07i O3 (tests/test_field_less_child_record_bug.py): a track or a lesson
    holding no value is a hollow row; it gets its name or title."""
    assert _fields(parse_request(request_text), child) == [(field, True)]


def test_a_record_without_fields_or_parent_still_gets_a_name():
    spec = parse_request("Librarians can add patrons.")
    assert _fields(spec, "patron") == [("name", True)]


def test_the_app_of_a_child_without_fields_serves_and_passes_its_checks(tmp_path):
    from harness.acceptance import run_acceptance
    from helpers import write_files

    spec = postprocess(parse_request(REQUEST))
    with served(write_files(generate_files(spec), tmp_path / "app"), tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
        book = _post(base + "/api/books", {"title": "Dune"})
        copy = _post(base + "/api/copies", {"book_id": book["id"]})
    assert checks and all(c.ok for c in checks), [(c.name, c.detail) for c in checks if not c.ok]
    assert copy["book_id"] == book["id"]


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        assert answer.status == 201
        return json.loads(answer.read())
