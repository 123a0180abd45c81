"""A rule the request states over a record — uniqueness, a required value, a most number — is realised
only by the spec element that enforces it (stranger trial 2026-12-07h c20/c21/c22;
harness/offline/accounting/rule_asks.py, required_asks.py).

Before, "No two contacts can have the same email" was credited to the field contact.email ("two" to
the actor, "same" a function word), "Every product must have a price" to the field product.price, and
"Each user can have at most one profile" to the record profile: three BUILD COMPLETEs where a duplicate
email, a product without a price and a second profile were all answered 201. Each case reads the
clause against the spec the parser builds, and against the same spec with the element added.
"""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request


def _clause(request: str, start: str):
    spec = parse_request(request)
    return spec, next(c for c in spec.clauses if c.text.startswith(start))


def _field(spec, entity: str, name: str):
    return next(f for e in spec.data_model if e.name == entity for f in e.fields if f.name == name)


@pytest.mark.parametrize("request_text, start, named", [
    ("Users add contacts with a name and an email. No two contacts can have the same email.", "No two",
     ["No two", "same email"]),
    # held-out phrasings nobody named in the trial
    ("Users add members with a name and a phone. Each phone must be unique.", "Each phone", ["phone", "unique"]),
    ("Users add books with a title and an isbn. Books cannot share the same isbn, no duplicates.", "Books",
     ["same isbn", "duplicates"]),
])
def test_uniqueness_credited_without_a_unique_field_bug(request_text, start, named):
    spec, clause = _clause(request_text, start)
    for e in spec.data_model:   # the accounting must not rely on the parser making it unique
        for f in e.fields:
            f.unique = False
    acc = account_text(clause.text, spec)
    for phrase in named:
        assert any(phrase.lower() in u.lower() or u.lower() in phrase.lower() for u in acc.unaccounted), \
            (phrase, acc.unaccounted)


def test_a_unique_field_realises_the_uniqueness_clause():
    spec, clause = _clause("Users add contacts with a name and an email. No two contacts can have the same "
                           "email.", "No two")
    _field(spec, "contact", "email").unique = True
    acc = account_text(clause.text, spec)
    assert acc.unaccounted == []
    assert acc.words["same"] == "unique contact.email"


@pytest.mark.parametrize("request_text, start, named", [
    ("Users add products with a name and a price. Every product must have a price.", "Every", ["price"]),
    ("Users add tasks with a title and a due date. Each task must include a due date.", "Each", ["due date"]),
    ("Users add notes with a title and a body. The body cannot be empty.", "The body", ["body", "empty"]),
])
def test_required_value_credited_to_an_optional_field_bug(request_text, start, named):
    spec, clause = _clause(request_text, start)
    for e in spec.data_model:   # the accounting must not rely on the parser making it required
        for f in e.fields:
            if f.name != "title" and f.name != "name":
                f.required = False
    acc = account_text(clause.text, spec)
    for phrase in named:
        assert any(phrase in u for u in acc.unaccounted), (phrase, acc.unaccounted)


def test_a_required_field_realises_the_obligation():
    spec, clause = _clause("Users add products with a name and a price. Every product must have a price.",
                           "Every")
    _field(spec, "product", "price").required = True
    assert account_text(clause.text, spec).unaccounted == []


@pytest.mark.parametrize("request_text, start, named", [
    ("Users add profiles with a name and a bio. Each user can have at most one profile.", "Each",
     ["at most one"]),
    ("Users add pets with a name. Users can add only one pet per household.", "Users can", ["only one"]),
])
def test_most_number_credited_without_a_limit_bug(request_text, start, named):
    spec, clause = _clause(request_text, start)
    acc = account_text(clause.text, spec)
    for phrase in named:
        assert any(phrase in u for u in acc.unaccounted), (phrase, acc.unaccounted)


def test_a_capacity_realises_the_most_number():
    spec, clause = _clause("Members add loans with a date. A member can have no more than 3 loans.", "A member")
    acc = account_text(clause.text, spec)
    assert acc.unaccounted == [] and acc.words["3"].startswith("capacity loan")


@pytest.mark.parametrize("text", ["Only one person uses the app.", "Ratings go from 1 up to 5."])
def test_a_number_that_counts_no_records_or_is_a_bound_stays_realised(text):
    spec = parse_request("Users add movies with a title and a rating from 1 to 5. " + text)
    clause = next(c for c in spec.clauses if c.text == text)
    acc = account_text(clause.text, spec)
    assert not any("one" in u or "5" in u for u in acc.unaccounted), acc.unaccounted


@pytest.mark.parametrize("request_text, field", [
    ("Users add products with a name and a price. Every product must have a price.", "price"),
    ("Users add notes with a title and a body. The body cannot be empty.", "body"),
])
def test_the_parser_makes_a_field_a_record_must_have_required(request_text, field):
    spec = parse_request(request_text)
    assert _field(spec, spec.data_model[0].name, field).required
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


@pytest.mark.parametrize("request_text, field", [
    ("Users add contacts with a name and an email. No two contacts can have the same email.", "email"),
    ("Users add members with a name and a phone. Each phone must be unique.", "phone"),
])
def test_the_parser_makes_a_field_no_two_records_share_unique(request_text, field):
    spec = parse_request(request_text)
    assert _field(spec, spec.data_model[0].name, field).unique
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


@pytest.mark.slow
def test_a_second_contact_with_the_same_email_is_refused_over_http(tmp_path):
    """Real uvicorn: the trial's c20 answered 201 twice under BUILD COMPLETE."""
    import json
    import urllib.error
    import urllib.request

    from helpers import write_files
    from served_app import served

    from harness.agents.spec_agent import postprocess
    from harness.offline.generator import generate_files

    spec = postprocess(parse_request("Users add contacts with a name and an email. No two contacts can have "
                                     "the same email."))
    ws = write_files(generate_files(spec), tmp_path / "ws")

    def post(base: str) -> int:
        req = urllib.request.Request(base + "/api/contacts", method="POST",
                                     data=json.dumps({"name": "Ann", "email": "ann@example.com"}).encode(),
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as err:
            return err.code

    with served(ws, tmp_path / "app.db") as base:
        assert [post(base), post(base)] == [201, 409]


@pytest.mark.slow
def test_a_product_without_the_price_it_must_have_is_refused_over_http(tmp_path):
    """Real uvicorn: the trial's c22 answered 201 with "price": null under BUILD COMPLETE."""
    import json
    import urllib.error
    import urllib.request

    from helpers import write_files
    from served_app import served

    from harness.agents.spec_agent import postprocess
    from harness.offline.generator import generate_files

    spec = postprocess(parse_request("Users add products with a name and a price. Every product must have a price."))
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]
    ws = write_files(generate_files(spec), tmp_path / "ws")

    def post(base: str, body: dict) -> int:
        req = urllib.request.Request(base + "/api/products", data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as err:
            return err.code

    with served(ws, tmp_path / "app.db") as base:
        assert post(base, {"name": "Widget"}) == 422
        assert post(base, {"name": "Widget", "price": 9.5}) == 201
