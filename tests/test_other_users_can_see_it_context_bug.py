"""Stranger trial 2026-12-08j F6 (q02): "Users register and log in. Users create events. Only the
creator of an event can delete it; other users can see it." ended BUILD COMPLETE with "other users
can see it" set aside as context ("other" a function word, "users" and "see" framing) while every
event stayed private: a second account listed [] and got 404. "other users / everyone else / all
users can see it" asks that other accounts read the record: realised only by shared (or public)
read of it (accounting/everyone_asks.py); "other users cannot see it" grants nothing."""

from __future__ import annotations

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
