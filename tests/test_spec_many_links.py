"""The parser recognises many-to-many links (patterns/relations.jsonl, pass "many-to-many links")
and gives the spec language's `many` (docs/spec-language.md), not a parent or a text field."""

from __future__ import annotations

import pytest

from harness.agents.spec_agent import postprocess
from harness.offline.spec.rules import rule_based_spec


def _spec(request: str):
    return postprocess(rule_based_spec(request))


def _entity(spec, ident: str):
    return next(e for e in spec.data_model if e.ident == ident)


@pytest.mark.parametrize("request_text, record, linked", [
    ("Games have a name. Each game has many players and each player many games.", "game", "player"),
    ("Games have a name. Each game has many players and each player has many games.", "game", "player"),
    ("A notes app where notes can have many tags; each tag has a name.", "note", "tag"),
    ("Notes have a title and a body. A note can have multiple tags.", "note", "tag"),
    ("Notes have a title and a body. Users can tag notes.", "note", "tag"),
    ("Notes have a title and a body. Notes can be tagged.", "note", "tag"),
    ("Students and classes have a name. A student can be in many classes.", "class_item", "student"),
])
def test_a_many_to_many_phrasing_gives_the_link_and_its_requirement(request_text, record, linked):
    spec = _spec(request_text)
    e = _entity(spec, record)
    assert e.many == [linked]
    assert _entity(spec, linked).parent is None and e.parent is None
    link = [r for r in spec.requirements if r.capability == "link"]
    assert [r.entity for r in link] == [record]
    assert all(c.status == "mapped" for c in spec.clauses), [(c.text, c.reason) for c in spec.clauses]
    assert any(link[0].id in c.reqs for c in spec.clauses)


def test_tags_of_a_note_are_a_link_not_a_text_field():
    """Before: 'notes can have many tags' gave notes a text field `tags` and tags no relation."""
    spec = _spec("A notes app where each note has a title and a body, and notes can have many tags; "
                 "each tag has a name.")
    note = _entity(spec, "note")
    assert note.many == ["tag"]
    assert "tags" not in [f.ident for f in note.fields]


def test_one_way_many_of_a_plain_record_stays_the_parent_relation():
    spec = _spec("Projects have a name. A project can have many tasks.")
    assert _entity(spec, "task").parent == "project"
    assert all(not e.many for e in spec.data_model)


@pytest.mark.parametrize("request_text", [
    "Tasks have a title. Show how many tasks I completed.",
    "Players have a name. How many players does each game have?",
    "Games have a name; the app has many users.",
    "Notes have a title. A tag note field.",
    "Games have a name. Each game has many players and each team many coaches.",
])
def test_many_that_is_no_link_of_two_records_links_nothing(request_text):
    spec = _spec(request_text)
    assert all(not e.many for e in spec.data_model)
    assert not [r for r in spec.requirements if r.capability == "link"]


def test_filter_by_a_linked_record_is_the_link_filter_not_a_column_filter():
    """Before: 'filter the notes list by tag' left 'tag' not understood (notes have no tag column)."""
    spec = _spec("Notes have a title. A note can have multiple tags and each tag has a name. "
                 "Filter the notes list by tag.")
    assert _entity(spec, "note").many == ["tag"]
    assert not [f for f in spec.features if f.kind == "filter"]
    link = next(r for r in spec.requirements if r.capability == "link")
    assert spec.clauses[-1].status == "mapped" and link.id in spec.clauses[-1].reqs


def test_filter_by_an_unlinked_record_is_no_link():
    spec = _spec("Notes have a title. Tags have a name. Filter the notes list by tag.")
    assert all(not e.many for e in spec.data_model)


def test_bug_each_note_has_a_title_and_body_names_the_note_record():
    """The brief's request: 'note' is also a column word, so 'each note has a title and body' built no
    fields and the clause was not built; the field list also ran on into 'and notes can have ...'."""
    spec = _spec("A notes app where each note has a title and body, and notes can have many tags; "
                 "each tag has a name.")
    note = _entity(spec, "note")
    assert [f.ident for f in note.fields] == ["title", "body"] and note.many == ["tag"]
    assert all(c.status == "mapped" for c in spec.clauses)
