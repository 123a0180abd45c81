"""Words that ask for an account, an owner or a restriction are realised only by the spec element that
enforces them (#48, stranger trial 2026-12-07f F1-F5, O6-O8, the harness false fail of Sd;
harness/offline/accounting/identity_asks.py, words/identity_asks_en.txt).

Before, "own"/"only" were function words, "Signed in users" the actor, "As a signed up user" the
self-introduction, "Logged in" framing and "not remove it from the database" what the app need not do:
five requests ended BUILD COMPLETE with `auth = false`, and any anonymous visitor changed and deleted
every record. Each case below reads the clause against the spec the parser builds.
"""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request

LOGIN = "Users register and log in. "


def _clause(request: str, start: str):
    spec = parse_request(request)
    return spec, next(c for c in spec.clauses if c.text.startswith(start))


@pytest.mark.parametrize("records, text, named", [
    # the trial's five false passes and two over-claims, and held-out phrasings of each, read against
    # a spec without accounts (the parser now turns the login on for most of them:
    # tests/test_login_phrases_turn_on_accounts_bug.py; the accounting must not rely on that)
    ("Students have a name. Grades have a value.", "Each student can only see their own grades.", ["own"]),
    ("Events have a title.", "Signed in users can create events and update or delete their own events.",
     ["Signed in", "own"]),
    ("Recipes have a title.", "Logged in users can post recipes, and only the author of a recipe can edit or "
     "delete it.", ["Logged in", "only", "author"]),
    ("Recipes have a title.", "As a signed up user I want to create new recipes and edit or delete my own "
     "recipes.", ["signed up", "own"]),
    ("Reservations have a date.", "Clients can add reservations and see only their own reservations.",
     ["only", "own"]),
    ("Comments have a text.", "Users can only delete their own comments.", ["only", "own"]),
    ("Photos have a caption.", "Members who are logged-in can add photos and remove their own photos.",
     ["logged-in", "own"]),
    ("Notes have a title.", "Registered users can add notes.", ["Registered users"]),
    ("Posts have a title.", "A post can only be edited by its author.", ["only", "author"]),
])
def test_identity_words_without_accounts_reported_built_bug(records, text, named):
    spec = parse_request(records)
    assert not spec.auth
    said = " ".join(account_text(text, spec).unaccounted)
    for word in named:
        assert word in said, (word, said)


# "Deleting an expense should only mark it as deleted, not remove it from the database" is built now
# (delete = "soft" enforces it) and fails without the construct: tests/test_soft_delete.py.
@pytest.mark.parametrize("request_text, start", [
    ("Invoices have an amount. Paid invoices cannot be deleted.", "Paid"),
    ("Track plants with a name. Users must never remove a plant.", "Users must"),
])
def test_negated_or_restricted_action_counted_as_built_bug(request_text, start):
    """A negation or "only" on an action is a rule: built only when an element enforces it."""
    _spec, clause = _clause(request_text, start)
    assert clause.status == "not_built", clause.words
    said = " ".join(clause.unaccounted)
    assert any(w in said for w in ("not", "only", "cannot", "never")), clause.unaccounted


def test_students_log_in_fails_only_on_the_actor_of_the_login_bug():
    """Sd: the subject of a log-in clause is the account (before: `not built: "Students"`)."""
    spec, clause = _clause("Students log in, add homework with a due date and a subject, and mark it "
                           "as done.", "Students")
    assert spec.auth and clause.status == "mapped", clause.unaccounted
    assert clause.words["students"].startswith("auth")


@pytest.mark.parametrize("request_text, start", [
    (LOGIN + "Signed in users can create events and update or delete their own events.", "Signed in"),
    (LOGIN + "Reservations have a date. Clients can add reservations and see only their own reservations.",
     "Clients"),
    (LOGIN + "Comments have a text. Users can only delete their own comments.", "Users can only"),
    (LOGIN + "Recipes have a title. Only the author of a recipe can edit or delete it.", "Only the"),
    (LOGIN + "Books have a title. Only registered users can add books.", "Only registered"),
])
def test_with_accounts_the_same_words_are_realised_by_the_login(request_text, start):
    spec, clause = _clause(request_text, start)
    assert spec.auth and clause.status == "mapped", clause.unaccounted
    assert any(v.startswith(("login:", "auth")) for v in clause.words.values())


def test_without_logging_in_needs_a_spec_without_a_login():
    # with a login it is realised only by public read (tests/test_public_read.py: unaccounted over
    # private or only shared events)
    spec, clause = _clause(LOGIN + "Events have a title. Anyone can see all events without logging in.",
                           "Anyone")
    assert spec.auth and [e.read for e in spec.data_model] == ["public"] and clause.status == "mapped"
    assert clause.words["logging"] == clause.words["in"] == "public read of events"
    spec, clause = _clause("Events have a title. Anyone can see all events without logging in.", "Anyone")
    assert not spec.auth and clause.status == "mapped", clause.unaccounted


@pytest.mark.parametrize("text", [
    "View the ratio of plants that are not marked as overdue",   # a description, not a rule
    "These plants need not be added to the list",              # a spared need
    "Create your own plant tracker",                             # the app, not its records
])
def test_descriptions_and_the_app_are_no_restriction(text):
    spec = parse_request("Plants have a name and can be marked as overdue.")
    acc = account_text(text, spec)
    assert not {"not", "own"} & {w.lower() for phrase in acc.unaccounted for w in phrase.split()}, acc.unaccounted
