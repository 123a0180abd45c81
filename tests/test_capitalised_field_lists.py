"""#48 defect 4: capitalised field names in lists and bracketed synonyms. A bullet holding two fields
("- Start Time and End Time") or a field with another name in brackets ("- Full name (Name)") broke
the record's field list: the bullet became a clause of its own, its fields and every later bullet
("- Location") were not read. "I must provide a Start Time and End Time for each Shift" made only the
start time required and left "End Time" not understood."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


def _fields(spec, record: str) -> list[str]:
    return [f.name for f in next(e for e in spec.data_model if e.name == record).fields]


@pytest.mark.parametrize("request_text, record, fields", [
    ("Events have:\n- Title\n- Start Time and End Time\n- Location", "event",
     ["title", "start time", "end time", "location"]),
    ("Members have:\n- Full name (Name)\n- Email\n- Phone", "member", ["full name", "email", "phone"]),
])
def test_a_bullet_with_two_fields_or_a_bracketed_name_stays_in_the_field_list_bug(request_text, record, fields):
    spec = parse_request(request_text)
    assert _fields(spec, record) == fields
    assert [c.status for c in spec.clauses] == ["mapped"]


def test_a_sentence_bullet_still_ends_the_field_list():
    spec = parse_request("Events have:\n- Title\n- Users can sign up and then log in to the site\n- Location")
    assert _fields(spec, "event") == ["title"]


@pytest.mark.parametrize("request_text", [
    "I must provide a Start Time and End Time for each Shift.",
    "I must provide a start time and end time for each shift.",
])
def test_must_provide_two_capitalised_fields_makes_both_required_bug(request_text):
    spec = parse_request(request_text)
    assert [(f.name, f.required) for f in spec.data_model[0].fields] == [("start time", True), ("end time", True)]
    assert [c.status for c in spec.clauses] == ["mapped"]


def test_a_required_statement_naming_a_record_type_adds_no_field():
    spec = parse_request("Books and authors. Title and author should be mandatory.")
    assert _fields(spec, "book") == ["title"] and _fields(spec, "author") == ["name"]
