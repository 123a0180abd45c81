"""A user story's role was always framing: "As an admin, I want to add products" was reported built
(mapped) over an app where anyone adds products, the admin dropped silently. A role word
(asks_en.txt: admin, manager, staff …) in the story's "As a …" asks for that role's rights: it is
realised only by a spec with the role, and the parser reads the story like "Admins can add
products" (a managing role, when the request has accounts)."""

from __future__ import annotations

import pytest

from tests.spec_golden import spec_document


def _clause(doc: dict, text_start: str) -> dict:
    return next(c for c in doc["clauses"] if c["text"].startswith(text_start))


def test_an_admin_story_without_a_role_is_not_built_and_names_the_role_bug():
    doc = spec_document("A shop app. Products have a name and a price. As an admin, I want to add products. "
                        "As a customer, I want to browse products.")
    story = _clause(doc, "As an admin")
    assert story["status"] == "not_built" and story["unaccounted"] == ["admin"]
    assert _clause(doc, "As a customer")["status"] == "mapped"   # a customer browsing needs no role


@pytest.mark.parametrize("story", ["As an admin, I want to add products.",
                                   "As a manager I want to be able to create, edit and delete products."])
def test_a_managing_role_story_makes_the_role_manage_the_records_bug(story):
    doc = spec_document(f"Products have a name and a price. {story} Customers can browse products.")
    product = doc["data_model"][0]
    assert product["name"] == "product" and product.get("manage") in ("admin", "manager")
    assert _clause(doc, "As a")["status"] == "mapped"


def test_a_plain_user_story_stays_framing():
    doc = spec_document("Products have a name and a price. As a user, I want to add products.")
    assert _clause(doc, "As a user")["status"] == "mapped" and not doc["data_model"][0].get("manage")
