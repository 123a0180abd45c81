"""A record's fields said by how it is told apart or filled in (D5, found by a stranger): "Each
donor is identified by a donor id, name, ...", "<records> are described by ...", "log an animal by
submitting a form with species, name, ...". A "<record> id" in its own record's list is the id every
record has (docs/spec-language.md: a field named id is the app's own column), no field of its own."""

from __future__ import annotations

from harness.offline.spec import parse_request


def fields(spec, entity: str) -> list[str]:
    return [f.name for f in spec.entity(entity).fields]


def not_built(spec) -> list[str]:
    return [c.text for c in spec.clauses if c.status == "not_built"]


def test_d5_donor_identified_by_a_field_list_is_the_donor_record_with_those_fields():
    spec = parse_request("Each donor is identified by a donor id, name, sex, age, address and phone number.")
    assert [e.name for e in spec.data_model] == ["donor"]
    assert fields(spec, "donor") == ["name", "sex", "age", "address", "phone number"]
    assert not_built(spec) == []   # "donor id" is the donor's own id


def test_d5_fields_of_a_form_submitted_for_a_record_are_the_records_fields():
    spec = parse_request("Staff log a newly-admitted animal by submitting a form with animal species, "
                         "name, age, and sex.")
    assert fields(spec, "animal") == ["species", "name", "age", "sex"]
    # "newly-admitted" asks for something no field keeps: the clause stays not built, for that word only
    assert [c.reason for c in spec.clauses if c.status == "not_built"] == [
        'not built: "newly-admitted"']   # only the accounting's words (trial D7)


def test_records_described_by_a_field_list():
    spec = parse_request("Animals are described by species, name and age.")
    assert fields(spec, "animal") == ["species", "name", "age"]
    assert not_built(spec) == []


def test_an_id_of_another_record_in_a_list_stays_a_field():
    spec = parse_request("Each loan is identified by a member id, a book title and a due date.")
    assert fields(spec, "loan") == ["member id", "book title", "due date"]
