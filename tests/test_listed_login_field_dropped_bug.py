"""A field the request lists for a record is a field of that record, or the clause is not built naming
it (stranger trial 2026-12-07h c23/c24; harness/offline/accounting/rule_asks.py).

Before, "Users add members with a name and a username" turned the login on, left `username` out of
the member record and credited the word to the login: BUILD COMPLETE, and POST /api/members with a
username was refused 422 "Extra inputs are not permitted".
"""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request


@pytest.mark.parametrize("request_text, word", [
    ("Users add members with a name and a username.", "username"),
    ("Users add networks with a name and a password.", "password"),
    ("Users add customers with a name, an email and a username.", "username"),
])
def test_a_listed_field_the_record_lacks_is_named_bug(request_text, word):
    spec = parse_request(request_text)
    entity = spec.data_model[0]
    has_field = any(f.name == word for f in entity.fields)
    acc = account_text(spec.clauses[0].text, spec)
    assert has_field or word in acc.unaccounted, (word, [f.name for f in entity.fields], acc.words)


def test_the_login_words_outside_a_field_list_stay_the_logins():
    spec = parse_request("Users register with a username and a password. Users add notes with a title.")
    acc = account_text(spec.clauses[0].text, spec)
    assert acc.unaccounted == [], acc.unaccounted


@pytest.mark.parametrize("request_text, word", [
    ("Users add members with a name and a username.", "username"),
    ("Users add networks with a name and a password.", "password"),
])
def test_the_parser_keeps_a_listed_login_value_as_a_plain_field_bug(request_text, word):
    """A record's password is the record's value: it does not turn the login on."""
    spec = parse_request(request_text)
    assert not spec.auth
    assert [f.name for f in spec.data_model[0].fields] == ["name", word]
    assert [c.status for c in spec.clauses] == ["mapped"]


@pytest.mark.slow
def test_a_member_with_a_username_is_stored_over_http(tmp_path):
    """Real uvicorn: the trial's c23 answered 422 "username: Extra inputs are not permitted"."""
    import json
    import urllib.request

    from helpers import write_files
    from served_app import served

    from harness.agents.spec_agent import postprocess
    from harness.offline.generator import generate_files

    spec = postprocess(parse_request("Users add members with a name and a username."))
    ws = write_files(generate_files(spec), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        req = urllib.request.Request(base + "/api/members", method="POST",
                                     data=json.dumps({"name": "Ann", "username": "ann99"}).encode(),
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as answer:
            assert answer.status == 201 and json.loads(answer.read())["username"] == "ann99"
