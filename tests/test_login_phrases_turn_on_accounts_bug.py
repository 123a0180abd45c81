"""The common phrasings of accounts and ownership turn the login on (stranger trial 2026-12-07f F2-F4,
O7, O8; rows of `words/parser_maps.toml` [lexicon.phrases]/[lexicon.hyphen_forms] and the access rows
"their own records (login)", "only the author (login)" of `patterns/features.jsonl`).

Before, "Signed in users can …", "Logged in users can …", "As a signed up user …", "their own X" and
"only the author" left `auth = false`: any anonymous visitor changed and deleted every record."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


@pytest.mark.parametrize("request_text", [
    "Logged in users can post recipes, and only the author of a recipe can edit or delete it.",
    "As a signed up user I want to create new recipes and edit or delete my own recipes.",
    "Clients can add reservations and see only their own reservations.",
    "Notes have a title. Logged-in members can add notes.",
    "Photos have a caption. Users can only delete their own photos.",
    "Posts have a title. Only the creator of a post can change it.",
])
def test_account_and_ownership_phrasings_leave_the_login_off_bug(request_text):
    spec = parse_request(request_text)
    assert spec.auth
    assert not any(e.shared for e in spec.data_model)   # private to the account that added them


def test_anyone_reading_without_logging_in_beside_signed_in_authors_is_public_read():
    """The login on; the events anyone reads (`read = "public"`), each changed by its author only."""
    spec = parse_request("Anyone can see all events without logging in. Signed in users can create events and "
                         "update or delete their own events.")
    assert spec.auth and [(e.name, e.read) for e in spec.data_model] == [("event", "public")]
    assert all(c.status == "mapped" for c in spec.clauses), [c.unaccounted for c in spec.clauses]


def test_only_the_author_of_a_record_is_no_column_bug():
    spec = parse_request("Logged in users can post recipes, and only the author of a recipe can edit or delete it.")
    assert [f.name for f in spec.entity("recipe").fields] == ["title"]   # before: a free-text `author` only
    assert all(c.status == "mapped" for c in spec.clauses)


@pytest.mark.parametrize("request_text", [
    "Create your own expense tracker to track your daily expenses.",       # the app, not records
    "Recipes have a title. I want to write my own recipes.",              # no rule over who acts
    "Recipes have a title and an author. Show the author of a recipe.",   # a column
    "Recipes have a title. Anyone can browse recipes without logging in.",  # a login ruled out
])
def test_no_login_from_words_that_ask_for_none(request_text):
    assert not parse_request(request_text).auth
