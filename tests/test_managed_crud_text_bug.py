"""The crud requirement of a record a role manages says who may (acct48b; trial 2026-12-07e F3): it
said "Users can create, list, view, update and delete recipes" while a member's POST was a 403."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


@pytest.mark.parametrize("request_text,record,text", [
    ("A recipe app with login. Recipes have a title. Only admins can add, edit and delete recipes.", "recipe",
     "The admin role can create, list, view, update and delete recipes"),
    ("A library app with login and librarians. Books have a title. Only librarians can add, change and delete "
     "books.", "book", "The librarian role can create, list, view, update and delete books"),
])
def test_the_crud_of_a_managed_record_names_its_role_bug(request_text, record, text):
    spec = parse_request(request_text)
    assert spec.entity(record).manage
    crud = next(r for r in spec.requirements if r.capability == "crud" and r.entity == record)
    assert crud.text == text and crud.acceptance.startswith(f"As the {spec.entity(record).manage} role, POST")


def test_an_unmanaged_record_keeps_the_users_wording():
    spec = parse_request("A recipe app. Recipes have a title.")
    assert spec.requirements[0].text == "Users can create, list, view, update and delete recipes"
