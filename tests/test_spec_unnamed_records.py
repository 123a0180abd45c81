"""Records identified by what they link and count get no invented required name.

Found on a stranger's coursework brief (an inventory with orders): "Orders have a product and a
quantity" built an order with a required `name` nobody asked for, so POST /api/orders
{"product_id": 1, "quantity": 3} answered 422. Named things keep the name or title a user expects.
"""

from harness.offline.spec.rules import rule_based_spec


def _fields(request: str) -> dict[str, list[str]]:
    return {e.name: [f.ident for f in e.fields] for e in rule_based_spec(request).data_model}


def _required(request: str, entity: str) -> list[str]:
    spec = rule_based_spec(request)
    return [f.ident for e in spec.data_model if e.name == entity for f in e.fields if f.required]


def test_an_order_of_a_product_gets_no_invented_name_bug():
    request = "Products have a name, quantity and cost. Orders have a product and a quantity."
    fields = _fields(request)
    assert "name" not in fields["order"] and "quantity" in fields["order"]
    assert "name" not in _required(request, "order")
    assert fields["product"][0] == "name"   # the product's own name, asked for, stays


def test_a_loan_linking_a_book_and_a_member_gets_no_invented_name():
    fields = _fields("A library with books and members. Loans have a book, a member and a due date.")
    assert "name" not in fields["loan"] and "due_date" in fields["loan"]


def test_a_visit_of_a_patient_gets_no_invented_name():
    fields = _fields("Patients have visits with a date and notes.")
    assert "name" not in fields["visit"] and "title" not in fields["visit"]


def test_records_with_listed_fields_get_no_invented_name_or_title():
    """Drafts invent nothing: a record the user listed fields for keeps only those (D3/D8)."""
    assert _required("Owners have pets with a birth date.", "pet") == []
    assert _required("Projects have tasks with a due date.", "task") == []
    assert _required("Track orders with a total.", "order") == []
