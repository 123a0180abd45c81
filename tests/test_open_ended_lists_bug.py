"""Bug (acct48 D3): a list left open — "(…, etc.)", "and so on", "et cetera" — was read as if it were
complete and, worse, its marker became part of the spec: "et cetera" a field of the record,
"(groceries, bills, salary, etc)" an enum with a value "etc" (dev request 17). Nothing said the list
had been cut. The marker is now never a field or a value; the accounting labels it "open-ended
list" (words/open_lists_en.txt, it fails no clause), and the draft writes under the clause that
only the named items were built."""

from __future__ import annotations

import tomllib

import pytest

from harness.offline.accounting.open_lists import OPEN_LIST
from harness.offline.accounting.run_draft import request_draft
from harness.offline.spec import parse_request


def _fields(spec, name):
    return {f.name: f.enum_values for f in spec.entity(name).fields}


def test_et_cetera_is_no_field_bug():
    spec = parse_request("Each contact has a name, phone, email, et cetera.")
    assert list(_fields(spec, "contact")) == ["name", "phone", "email"]
    assert [c.status for c in spec.clauses] == ["mapped"]


def test_etc_after_a_comma_is_no_choice_value_bug():
    spec = parse_request("Transactions have a date and a category (groceries, bills, salary, etc).")
    assert _fields(spec, "transaction")["category"] == ["groceries", "bills", "salary"]


@pytest.mark.parametrize("request_text, marker", [
    ("I want to track orders (customer, date, total, etc.).", "etc"),
    ("Each car has a make, a model, a year and so on.", "and so on"),
    ("Track recipes with a title, main ingredient (meat, chicken, vegetarian etc) and a rating.", "etc"),
])
def test_the_draft_says_an_open_list_was_cut_bug(request_text, marker):
    text, spec, clauses, _ = request_draft(request_text)
    assert f'# open-ended list ("{marker}"): only the items it names are built' in text
    tomllib.loads(text)
    assert clauses[0].status == "mapped" and OPEN_LIST in clauses[0].words.values()


def test_a_closed_list_gets_no_open_list_note():
    text, _, _, _ = request_draft("Each car has a make, a model and a year.")
    assert "open-ended" not in text
