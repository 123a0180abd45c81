"""Generated API modules call only the checks their entity has (#19, the audit's equivalent mutants).

Every generated `src/api_<entity>.py` called `_check_references` (a loop over an empty dict when the
entity refers to nothing) and `_check_row` (`return None` without whole-record rules), read the
stored record on update only to pass it to them, and ended `delete_item` with `return
Response(status_code=204)`, which FastAPI answers the same as `return None` on a 204 route. No test
can tell those apart from their mutants ("call dropped", "→ return None"), so the mutation audit
reported 14 of 88 mutants of the 20-entity scale request as surviving tests that were not weak.
"""

from __future__ import annotations

import ast

from harness.audit.mutator import candidates
from harness.models.spec import AppSpec, DataEntity, EntityField, Page, Requirement
from harness.offline.generator.units import generate_files


def shop_spec() -> AppSpec:
    """A customer (no references, no rules) and an order that refers to a customer."""
    return AppSpec(
        title="Shop", pages=[Page(name="Orders", route="/", entity="order")],
        data_model=[
            DataEntity(name="customer", plural="customers", ident="customer", fields=[
                EntityField(name="name", ident="name", type="str", required=True)]),
            DataEntity(name="order", plural="orders", ident="order", fields=[
                EntityField(name="item", ident="item", type="str", required=True),
                EntityField(name="customer", ident="customer_id", type="int", kind="reference", ref="customer",
                            required=True)])],
        requirements=[Requirement(id="REQ-001", text="Add and list customers", capability="crud", entity="customer"),
                      Requirement(id="REQ-002", text="Add and list orders", capability="crud", entity="order"),
                      Requirement(id="REQ-003", text="Health check and home page", capability="health")])


def test_generated_api_calls_checks_with_nothing_to_check_bug():
    files = generate_files(shop_spec())
    plain, referring = files["src/api_customer.py"], files["src/api_order.py"]
    ast.parse(plain)
    for dead in ("_check_references", "_check_row", "current = ", "Response(status_code=204)"):
        assert dead not in plain, dead
    assert "status_code=204, response_class=Response)" in plain  # an empty 204 without a content type
    descriptions = [m.description for m in candidates(plain)]
    assert not [d for d in descriptions if "_check_" in d or "Response(status_code=204)" in d]
    # an entity that refers to another keeps its reference check, and the 404 before it
    assert referring.count("_check_references(db, values, None)") == 2
    assert "def _check_references(" in referring and "_found(TABLE.get(db, item_id, None))" in referring
    assert "_check_row" not in referring


def test_a_whole_record_rule_keeps_its_check_and_the_stored_record():
    spec = AppSpec(
        title="Rooms", pages=[Page(name="Bookings", route="/", entity="booking")],
        data_model=[DataEntity(name="booking", plural="bookings", ident="booking", fields=[
            EntityField(name="starts at", ident="starts_at", type="datetime", required=True),
            EntityField(name="ends at", ident="ends_at", type="datetime", required=True)])],
        requirements=[Requirement(id="REQ-001", text="Book a room", capability="crud", entity="booking")])
    text = generate_files(spec)["src/api_booking.py"]
    ast.parse(text)
    assert "def _check_row(" in text and "must be after" in text
    assert "current = _found(TABLE.get(db, item_id, None))" in text
    assert "_check_row(db, {**current, **values}, None, item_id)" in text
