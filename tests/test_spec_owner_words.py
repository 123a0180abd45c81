"""Words before a record list that only say whose or how many records (harness/offline/spec/
entities.py `_np_heads`). Found while building a public recipe-app request (contra.com, "keeps
track of all users' recipes, ingredients, and inventory"): offline, "all" and the possessive
"users'" each stopped the list, so the request ended with "no data entity recognized"."""

from __future__ import annotations

import pytest

from harness.offline.spec.rules import rule_based_spec
from harness.offline.spec.tokens import tokenize


@pytest.mark.parametrize("request_text, expected", [
    ("An app that keeps track of all expenses and budgets.", {"expense", "budget"}),
    ("An app to manage all my books.", {"book"}),
])
def test_all_before_a_record_list_no_longer_hides_it_bug(request_text, expected):
    assert {e.name for e in rule_based_spec(request_text).data_model} == expected


@pytest.mark.parametrize("request_text", [
    "An app that keeps track of all users' recipes and ingredients.",
    "An app that keeps track of each user's recipes and ingredients.",
    "An app that keeps track of the user’s recipes and ingredients.",
])
def test_a_possessive_account_holder_before_a_record_list_reads_like_their_bug(request_text):
    spec = rule_based_spec(request_text)
    assert {e.name for e in spec.data_model} == {"recipe", "ingredient"}
    assert [c.status for c in spec.clauses] == ["mapped"]


def test_a_quoted_plural_is_no_possessive():
    toks, _, _ = tokenize("Manage 'projects' and 'tasks'.")
    assert [t.possessive for t in toks if t.w in ("projects", "tasks")] == [False, False]
    assert {e.name for e in rule_based_spec("Manage 'projects' and 'tasks'.").data_model} == {"project", "task"}


@pytest.mark.parametrize("request_text, auth", [
    ("An app that keeps track of all users' recipes and ingredients.", True),
    ("An app that keeps track of each user's recipes and ingredients.", True),
    ("An app that keeps track of the user's recipes and ingredients.", False),
])
def test_records_owned_by_many_account_holders_ask_for_accounts_bug(request_text, auth):
    """ "all users' recipes" asks for per-user data: accounts (the generated app isolates users);
    "the user's recipes" can describe a one-person app, as "their recipes" does."""
    assert rule_based_spec(request_text).auth is auth
