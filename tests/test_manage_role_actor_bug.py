"""Bug (stranger trial 2026-12-07e F3, the most severe finding): "A recipe app. Users can add
recipes. Only admins can delete recipes." ended BUILD COMPLETE (audited too) while a member's POST
/api/recipes is a 403: the recipes got `manage = "admin"` and "add" was credited to their crud. A
record verb said of a record one role manages is realised only when the clause's actor is that role
(accounting/manage_asks.py)."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


@pytest.mark.parametrize("request_text, verb", [
    ("A recipe app. Users can add recipes. Only admins can delete recipes.", "add"),
    ("Members can edit recipes. Only admins can delete recipes.", "edit"),
])
def test_a_verb_of_another_actor_on_a_managed_record_is_not_built_bug(request_text, verb):
    spec = parse_request(request_text)
    assert any(e.manage == "admin" for e in spec.data_model)
    asked = next(c for c in spec.clauses if verb in c.text.split())
    assert asked.status == "not_built" and verb in asked.unaccounted, asked


def test_the_managing_role_itself_is_built():
    spec = parse_request("Admins can add recipes. Only admins can delete recipes.")
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]
