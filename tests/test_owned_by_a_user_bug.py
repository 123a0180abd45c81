"""Bug (stranger trial 2026-12-07e F1): "An item tracker. Item can be owned by a user." ended BUILD
COMPLETE ("2 of 2 clauses built") with no accounts at all: "owned" met the function word "own" by
its stem and "user" is framing. "owned"/"owns"/"owning" is now realised only by accounts
(accounting/ownership_asks.py)."""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request
from served_app import spec_from_toml


@pytest.mark.parametrize("request_text", [
    "An item tracker. Item can be owned by a user.",
    "A task tracker. A task can be owned by a user.",
])
def test_owned_by_a_user_without_accounts_is_not_built_bug(request_text):
    spec = parse_request(request_text)
    assert not spec.auth
    assert spec.clauses[-1].status == "not_built" and "owned" in spec.clauses[-1].unaccounted


def test_owned_by_a_user_with_accounts_is_the_login(tmp_path):
    spec = spec_from_toml(tmp_path, '''title = "Items"
auth = true
[[entities]]
name = "item"
fields = [{ name = "name", required = true }]
''')
    words = account_text("Each item is owned by a user.", spec)
    assert not words.unaccounted and words.words["owned"] == "auth"


def test_my_own_is_still_a_function_word():
    spec = parse_request("Users keep their own recipes with a title.")
    assert spec.clauses[0].words.get("own") == "function word"
