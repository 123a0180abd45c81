"""Found probing the view-by fix (eighth pass): "shop", "store", "restaurant", "library" ... are
domain areas ("an online shop", "a library app": the app itself, no record type), and their
plural was dropped with them — "Users can manage customers, shops and orders. Each order belongs
to a shop." built customers and orders and counted both clauses as built, with no shop anywhere;
"Users can manage shops and orders." named no record at all. A place's plural now names records,
and once it does, its singular is that record too."""

from __future__ import annotations

import pytest

from harness.offline.spec.rules import rule_based_spec


def parents(spec):
    return {e.name: e.parent for e in spec.data_model}


def test_a_plural_place_is_a_record_and_its_singular_a_mention_of_it_bug():
    spec = rule_based_spec("Users can manage customers, shops and orders. Each order belongs to a shop.")
    assert parents(spec) == {"customer": None, "shop": None, "order": "shop"}
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


@pytest.mark.parametrize("text, expected", [
    ("Users can manage shops and orders.", {"shop": None, "order": None}),
    ("Users can manage libraries and books. Each book belongs to a library.", {"library": None, "book": "library"}),
])
def test_place_records_are_built_bug(text, expected):
    assert parents(rule_based_spec(text)) == expected


@pytest.mark.parametrize("text, expected", [
    ("An online shop to manage products.", {"product": None}),
    ("A library app to manage books and members.", {"book": None, "member": None}),
])
def test_a_singular_place_alone_is_still_the_apps_domain(text, expected):
    assert parents(rule_based_spec(text)) == expected
