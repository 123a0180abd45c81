"""Stranger trial 2026-12-08k B02 (over-claim): "A user can edit or delete a spot only if they posted
it" was reported built over an app without accounts (anyone's PUT 200, DELETE 204): "only", "if",
"they" were function words. An author clause after "only" ("if they posted it", "the user who posted
a spot") is realised only by records private to the account that added them."""

from __future__ import annotations

import pytest

from tests.spec_golden import spec_document


@pytest.mark.parametrize("clause", ["A user can edit or delete a spot only if they posted it.",
                                    "Only the user who posted a spot can edit or delete it."])
def test_an_author_restriction_without_accounts_is_not_built_bug(clause):
    last = spec_document(f"Parking spots have an address. {clause}")["clauses"][-1]
    assert last["status"] == "not_built" and last["unaccounted"]


@pytest.mark.parametrize("clause", ["A user can edit or delete a spot only if they posted it.",
                                    "Only the user who posted a spot can edit or delete it."])
def test_with_accounts_the_owner_rule_realises_it(clause):
    last = spec_document(f"Users sign up and log in. Parking spots have an address. {clause}")["clauses"][-1]
    assert last["status"] == "mapped"
