"""A number field's `min`/`max` (integer, money, decimal) is enforced by the generated app: the
pydantic models refuse a value outside them on create and update (422), the form's number input
carries them, the app's own tests send the values just outside, and the black-box acceptance check
sends them too and accepts the bounds themselves. A kind that has no range refuses `min`/`max` in
one line instead of dropping them."""

from __future__ import annotations

import httpx
import pytest

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import write_files
from served_app import served
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

ORDERS = ('title = "Orders"\n[[entities]]\nname = "order"\nfields = [\n'
          '  { name = "item", required = true },\n'
          '  { name = "quantity", kind = "integer", required = true, min = 1, max = 10 },\n'
          '  { name = "price", kind = "money", min = 0.5, max = 100 },\n'
          '  { name = "weight", kind = "decimal", min = -5, max = 5 },\n'
          '  { name = "guests", kind = "integer", min = -3 },\n'
          ']\n')
# (field, just below min, min, max, just above max)
EDGES = [("quantity", 0, 1, 10, 11), ("price", 0.49, 0.5, 100, 100.01), ("weight", -5.01, -5, 5, 5.01)]
QUANTITY = "quantity: Annotated[Count, Field(ge=1, le=10)]"


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "orders.toml"
    path.write_text(ORDERS, encoding="utf-8")
    return load_spec_file(path)


def test_bounds_reach_the_models_the_form_and_the_generated_tests(spec):
    files = generate_files(spec)
    api = files["src/api_order.py"]
    assert api.count(QUANTITY) == 2   # create and update
    assert "price: Annotated[Money, Field(ge=0.5, le=100)] | None = None" in api
    assert "weight: Annotated[Number, Field(ge=-5, le=5)] | None = None" in api
    assert "guests: Annotated[Count, Field(ge=-3)] | None = None" in api   # a given min replaces the floor
    pages = "".join(text for name, text in files.items() if name.startswith("src/pages"))
    assert 'type="number" step="1" min="1" max="10"' in pages
    assert 'type="number" step="0.01" min="0.5" max="100"' in pages
    assert 'type="number" step="any" min="-5" max="5"' in pages
    tests = files["tests/test_api_order.py"]
    for field, below, _low, _high, above in EDGES:
        for value in (below, above):
            assert f"json={{**body, '{field}': {value!r}}}, headers=headers).status_code == 422" in tests


@pytest.mark.slow
def test_integer_min_is_enforced_by_the_generated_api_bug(spec, tmp_path):
    """Bug: `quantity` with `min = 1` built BUILD COMPLETE, yet POST {"quantity": 0} answered 201:
    the generator honoured min/max only for ratings. Over real HTTP: just outside each bound is
    422 on create and update, the bounds themselves are 201/200."""
    ws = write_files(generate_files(spec), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base, httpx.Client(base_url=base) as http:
        body = {"item": "Tea", "quantity": 2}
        made = http.post("/api/orders", json=body)
        assert made.status_code == 201, made.text
        url = f"/api/orders/{made.json()['id']}"
        for field, below, low, high, above in EDGES:
            for value in (below, above):
                assert http.post("/api/orders", json={**body, field: value}).status_code == 422, (field, value)
                assert http.put(url, json={field: value}).status_code == 422, (field, value)
            for value in (low, high):
                got = http.post("/api/orders", json={**body, field: value})
                assert got.status_code == 201 and got.json()[field] == value, got.text
                assert http.put(url, json={field: value}).status_code == 200, (field, value)
        assert http.post("/api/orders", json={**body, "guests": -3}).status_code == 201
        assert http.post("/api/orders", json={**body, "guests": -4}).status_code == 422


@pytest.mark.slow
def test_the_generated_tests_pass_and_catch_a_dropped_bound(spec, tmp_path, suites):  # noqa: F811
    files = generate_files(spec)
    kept = suites.run(write_files(files, suites.base / "orders"), "-q", "-p", "no:cacheprovider",
                      "tests/test_api_order.py")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    files["src/api_order.py"] = files["src/api_order.py"].replace(QUANTITY, "quantity: Count")
    broken = suites.run(write_files(files, suites.base / "orders_unbounded"), "-q", "-p", "no:cacheprovider",
                        "tests/test_api_order.py")
    assert broken.exit_code == 1 and "failed" in broken.stdout, broken.stdout[-3000:]


@pytest.mark.slow
def test_the_black_box_check_refuses_just_outside_accepts_the_bound_and_fails_an_unbounded_app(spec, tmp_path):
    files = generate_files(spec)
    with served(write_files(files, tmp_path / "ws"), tmp_path / "app.db") as base:
        checks = {c.name: c for c in run_acceptance(base, spec, [], [])}
    quantity = checks["order.quantity refuses a wrong value"]
    assert quantity.ok and "0 → 422" in quantity.detail and "11 → 422" in quantity.detail, quantity.detail
    assert "1 → 201" in quantity.detail and "10 → 201" in quantity.detail, quantity.detail
    assert checks["order.price refuses a wrong value"].ok and "0.49 → 422" in checks["order.price refuses a wrong value"].detail
    assert [c.name for c in checks.values() if not c.ok] == []
    files["src/api_order.py"] = files["src/api_order.py"].replace(QUANTITY, "quantity: Count")
    with served(write_files(files, tmp_path / "ws_unbounded"), tmp_path / "app2.db") as base:
        failed = [c for c in run_acceptance(base, spec, [], []) if not c.ok]
    assert [c.name for c in failed] == ["order.quantity refuses a wrong value"], [(c.name, c.detail) for c in failed]
    assert "quantity = 0 (just below its minimum 1) was not refused" in failed[0].detail


@pytest.mark.parametrize("field, message", [
    ('{ name = "title", min = 1 }', "fields[1].min: a short_text field has no min; only integer, money, decimal, rating fields take min/max"),
    ('{ name = "due", kind = "date", max = 5 }', "fields[1].max: a date field has no max"),
    ('{ name = "quantity", kind = "integer", min = 5, max = 2 }', "fields[1].max: max 2 is below min 5: no value fits"),
    ('{ name = "amount", kind = "money", max = -1 }', "fields[1].max: max -1 is below the kind floor 0: no value fits"),
    ('{ name = "quantity", kind = "integer", min = 1.5 }', "fields[1].min: an integer field's min must be a whole number"),
    ('{ name = "weight", kind = "decimal", min = 1e20 }', "fields[1].min: must be a number between -1e15 and 1e15"),
])
def test_a_bound_a_field_cannot_honour_is_refused_in_one_line(tmp_path, field, message):
    path = tmp_path / "app.toml"
    path.write_text(f'[[entities]]\nname = "thing"\nfields = [{field}]\n', encoding="utf-8")
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(path)
    text = str(raised.value)
    assert message in text and "\n" not in text and text.startswith(f"{path}:"), text


def test_a_spec_from_elsewhere_gets_a_range_the_app_can_hold():
    """The request parser and JSON specs skip the spec file's checks: reversed bounds are swapped,
    a bound on a text kind is not carried into the models."""
    from harness.models.spec import AppSpec, DataEntity, EntityField
    from harness.offline.spec_file import with_requirements

    fields = [EntityField(name="seats", ident="seats", type="int", kind="integer", min_value=5, max_value=2),
              EntityField(name="title", ident="title", type="str", kind="short_text", min_value=1, max_value=3)]
    spec = with_requirements(AppSpec(title="Rooms", data_model=[DataEntity(
        name="room", plural="rooms", ident="room", fields=fields)]), dashboard=False)
    api = generate_files(spec)["src/api_room.py"]
    assert "seats: Annotated[Count, Field(ge=2, le=5)] | None = None" in api
    assert "title: ShortText | None = None" in api
