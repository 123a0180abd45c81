"""A public project specification nobody here wrote (an "Online store" exercise found in the code
corpus: "Orders have: - recipient - currency - deliveryOn (date) - items - total ..."), offline.

Written down before building, what a developer delivers: orders with a recipient, a currency, a
delivery date and a total; products with a name, a price and a currency; an order's products and
items; viewing an order, its items, a product. What the offline build did: "deliveryOn (date)"
became a record type "deliveryon" with a date field, counted as built — and the bracket ended the
field list, so "items" and "total" were lines of their own ("total" not understood); camelCase
columns ("totalPrice") were text; "items" of an order had no order; the title line "Online store"
and "Designing and implementing an online store application." were reported as asking to act on
no record (the noun "store" read as the verb). The `_bug` tests fail on the code before the fix
(seen); the last one uses the generated app over HTTP.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.generator.probes import ProbeStep
from harness.offline.spec import parse_request
from harness.verification.runtime import verify_runtime
from helpers import write_files

STORE = """# Online store

## Project specification

Designing and implementing an online store application. The application has to support creating and \
displaying orders. Each order contains products.

## Details

Orders have:

- recipient
- currency
- deliveryOn (date)
- items
- total

Orders can:

- print general order info
- print the list of items

---

Products have:

- name
- price
- currency

Products can:

- display general product info
"""


def entities(spec) -> dict[str, str | None]:
    return {e.name: e.parent for e in spec.data_model}


def columns(spec, name: str) -> dict[str, str]:
    return {f.ident: f.kind for f in next(e for e in spec.data_model if e.name == name).fields}


def test_a_camel_case_column_with_its_type_in_brackets_is_a_column_bug():
    spec = parse_request("Orders have:\n\n- recipient\n- deliveryOn (date)\n- total")
    assert entities(spec) == {"order": None}
    assert columns(spec, "order") == {"recipient": "short_text", "delivery_on": "date",
                                      "total": "money"}
    assert {c.status for c in spec.clauses} == {"mapped"}


@pytest.mark.parametrize("line, ident, kind", [
    ("total (number)", "total", "money"),
    ("weight (number)", "weight", "decimal"),
    ("quantity (int)", "quantity", "integer"),
    ("note (text)", "note", "long_text"),
    ("paid (boolean)", "paid", "boolean"),
    ("shippedAt (datetime)", "shipped_at", "datetime"),
    ("contact (string)", "contact", "short_text"),
    ("totalPrice", "total_price", "money"),
    ("dueDate", "due_date", "date"),
])
def test_a_type_in_brackets_or_a_camel_case_name_gives_the_column_its_kind_bug(line, ident, kind):
    spec = parse_request(f"Orders have:\n\n- recipient\n- {line}")
    assert columns(spec, "order").get(ident) == kind, columns(spec, "order")
    assert {c.status for c in spec.clauses} == {"mapped"}


def test_camel_case_stack_names_stay_stack_names():
    spec = parse_request("Ứng dụng quản lý chi tiêu. Lưu trữ: localStorage")
    assert "localStorage" in " ".join(c.reason for c in spec.clauses)


def test_records_listed_with_a_records_columns_are_its_children_bug():
    spec = parse_request("Orders have a recipient, items and a total.")
    assert entities(spec) == {"order": None, "item": "order"}


def test_the_online_store_builds_what_it_asks_and_names_what_it_does_not_bug():
    spec = parse_request(STORE)
    assert entities(spec) == {"order": None, "item": "order", "product": "order"}
    assert columns(spec, "order") == {"recipient": "short_text", "currency": "short_text",
                                      "delivery_on": "date", "total": "money"}
    assert columns(spec, "product") == {"name": "short_text", "price": "money", "currency": "short_text"}
    not_built = {c.text: c.reason for c in spec.clauses if c.status == "not_built"}
    # "print" stays unexplained; "items" of an order that "contains products" gets a record `item`
    # beside an unlinked `product`, both under order: one thing under two nouns, named (trial D6)
    assert not_built == {
        "Orders have: recipient, currency, deliveryOn (date), items, total":
            'not built: "items" (may be the same record as product)',
        "print general order info": 'not built: "print"',
        "print the list of items": 'not built: "print", "items" (may be the same record as product)'}


def test_an_article_or_adjective_before_an_action_word_makes_it_a_noun():
    """ "an online store": the noun, not the verb "store" (asking to act on no record)."""
    spec = parse_request("Designing and implementing an online store application. Products have a name. "
                         "Orders have a total.")
    assert [c.status for c in spec.clauses] == ["context", "mapped", "mapped"]
    spec = parse_request("Store notes. Tags have a name.")   # the verb: which record is said after it
    assert entities(spec) == {"note": None, "tag": None}
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


@pytest.mark.slow
def test_the_online_store_keeps_orders_with_their_items_over_http(tmp_path: Path):
    workspace = write_files(generate_files(parse_request(STORE)), tmp_path / "ws")
    order = {"recipient": "Ann", "currency": "EUR", "delivery_on": "2026-12-24", "total": 12.5}
    steps = [
        ProbeStep("order", "POST", "/api/orders", order, 201, {"order": "id"}, False),
        ProbeStep("not a date", "POST", "/api/orders", {**order, "delivery_on": "tomorrow"}, 422, {}, False),
        ProbeStep("product", "POST", "/api/products", {"name": "Pen", "price": 2.5, "currency": "EUR",
                                                         "order_id": "{order}"}, 201, {}, False),
        # an item the request lists no fields for has the name its noun implies (trial i O3)
        ProbeStep("item without its name", "POST", "/api/items", {"order_id": "{order}"}, 422, {}, False),
        ProbeStep("item", "POST", "/api/items", {"order_id": "{order}", "name": "Pen"}, 201, {}, False),
        ProbeStep("item of no order", "POST", "/api/items", {"order_id": 999, "name": "Pen"}, 404, {}, False),
        ProbeStep("the order's items", "GET", "/api/orders/{order}/items", None, 200, {}, False),
    ]
    result = verify_runtime(workspace, steps, startup_timeout_s=60)
    assert result.status == "PASS", [c for c in result.checks if not c.ok]
    evidence = "\n".join(result.evidence)
    assert '"delivery_on":"2026-12-24"' in evidence and '"total":12.5' in evidence
