"""D3/D8 of a stranger's trial: "Create support requests with content, priority level, and
submission time." gave the record a required `name` nobody asked for (POST with the user's own
fields -> 422 "name Field required"), and "submission time" became a clock time of the day.
A record the user listed fields for keeps exactly those fields (the generator shows it by its first
text field); only a record the request gives no fields at all still gets a name or title."""

from __future__ import annotations

import pytest

from harness.models.spec import AppSpec, DataEntity, EntityField
from harness.offline.field_kinds import kind_for_name
from harness.offline.generator.analyse import analyse
from harness.offline.requirement_words import entity_items
from harness.offline.spec import parse_request

SUPPORT = "Create support requests with content, priority level, and submission time."


def test_listed_fields_get_no_invented_required_name_bug():
    entity = parse_request(SUPPORT).data_model[0]
    assert [f.name for f in entity.fields] == ["content", "priority level", "submission time"]
    assert not any(f.required for f in entity.fields)


@pytest.mark.parametrize("request_text, record, fields", [
    ("Track expenses with a date and an amount.", "expense", ["date", "amount"]),
    ("Keep journal entries with a body and a mood.", "journal entry", ["body", "mood"]),
])
def test_a_record_with_only_non_name_fields_keeps_only_them_bug(request_text, record, fields):
    entity = next(e for e in parse_request(request_text).data_model if e.name == record)
    assert [f.name for f in entity.fields] == fields


def test_a_record_without_fields_still_gets_a_name():
    entity = next(e for e in parse_request("I want to manage projects and tasks.").data_model
                  if e.name == "project")
    assert [(f.name, f.required) for f in entity.fields] == [("name", True)]


def test_no_required_field_claims_no_missing_field_422():
    entity = DataEntity(name="note", plural="notes", ident="note",
                        fields=[EntityField(name="body", ident="body", type="text", kind="long_text")])
    acceptance = entity_items(entity, {"note": entity})[0][3]
    assert "422" not in acceptance and "an unknown id returns 404" in acceptance


@pytest.mark.parametrize("name", ["submission time", "creation time", "registration time"])
def test_the_time_of_a_records_own_event_is_a_moment_bug(name):
    assert kind_for_name(name) == "datetime"


@pytest.mark.parametrize("name", ["start time", "arrival time", "cooking time"])
def test_other_times_keep_their_kind(name):
    assert kind_for_name(name) == {"start time": "time", "arrival time": "time", "cooking time": "integer"}[name]


def test_the_support_request_spec_is_valid_and_stores_a_moment():
    spec = parse_request(SUPPORT)
    AppSpec.model_validate(spec.model_dump())
    kinds = {f.name: f.kind for f in spec.data_model[0].fields}
    assert kinds["submission time"] == "datetime" and kinds["content"] == "long_text"


def test_the_generator_shows_a_record_by_its_first_text_field_when_none_is_required():
    entity = analyse(parse_request(SUPPORT)).entities[0]
    assert entity.display is not None and entity.display.ident == "content"
