"""Stranger trial 2026-12-08j F6 (q02): "Users register and log in. Users create events. Only the
creator of an event can delete it; other users can see it." ended BUILD COMPLETE with "other users
can see it" set aside as context ("other" a function word, "users" and "see" framing) while every
event stayed private: a second account listed [] and got 404. "other users / everyone else / all
users can see it" asks that other accounts read the record: realised only by shared (or public)
read of it (accounting/everyone_asks.py); "other users cannot see it" grants nothing."""

from __future__ import annotations

import pytest

from harness.models.spec import AppSpec, DataEntity, EntityField, Requirement
from harness.offline.accounting.account import account_text


def _events(shared: bool) -> AppSpec:
    return AppSpec(title="Events", auth=True, data_model=[DataEntity(
        name="event", plural="events", ident="event", shared=shared, fields=[EntityField(name="title", ident="title")])],
        requirements=[Requirement(id="REQ-001", text="crud", capability="crud")])


def test_other_users_seeing_a_private_record_is_not_built_bug():
    private = _events(False)
    assert account_text("other users can see it.", private).unaccounted == ["other users"]
    assert account_text("everyone else can view them.", private).unaccounted == ["everyone else"]
    assert account_text("other users can see it.", private).context == ""


def test_shared_records_realise_it_and_a_denial_asks_nothing_of_it_bug():
    assert account_text("other users can see it.", _events(True)).unaccounted == []
    assert account_text("other users can edit it.", _events(True)).unaccounted == ["other users"]
    assert "other users" not in account_text("Other users cannot see other users' events.", _events(False)).unaccounted


Q02 = "Users register and log in. Users create events. Only the creator of an event can delete it; other users can see it."


def test_other_users_can_see_it_shares_the_record_bug():
    from tests.spec_golden import spec_document

    doc = spec_document(Q02)
    assert next(e for e in doc["data_model"] if e["name"] == "event").get("shared") is True
    assert [c["status"] for c in doc["clauses"]] == ["mapped"] * 4


@pytest.mark.slow
def test_another_account_sees_the_event_but_cannot_delete_it_over_http(tmp_path):
    from tests.test_accounted_records_served import _call, _serve

    _spec, app = _serve(Q02, tmp_path)
    with app as base:
        tokens = []
        for user in ("ann", "bob"):
            assert _call("POST", base + "/api/auth/register", {"username": user, "password": "secret-pass-1"})[0] == 201
            tokens.append(_call("POST", base + "/api/auth/login", {"username": user, "password": "secret-pass-1"})[1]["token"])
        status, event = _call("POST", base + "/api/events", {"title": "Board games night"}, tokens[0])
        assert status == 201
        status, listed = _call("GET", base + "/api/events", None, tokens[1])
        assert status == 200 and [e["title"] for e in listed] == ["Board games night"]
        assert _call("GET", base + f"/api/events/{event['id']}", None, tokens[1])[0] == 200
        assert _call("DELETE", base + f"/api/events/{event['id']}", None, tokens[1])[0] in (403, 404)
        assert _call("DELETE", base + f"/api/events/{event['id']}", None, tokens[0])[0] == 204
