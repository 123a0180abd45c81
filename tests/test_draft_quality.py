"""#48 defect 3 (D9 of a trial): the draft spec carried things nobody asked for — a `description`
field on every record the request gave no fields, a search feature from "without having to search",
and the title "This" from "This is an app for …". Each is fixed where it came from (the parser), so
the draft (harness/offline/accounting/draft.py) writes only what was read."""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import NEGATED, account_text
from harness.offline.accounting.run_draft import request_draft as draft_of
from harness.offline.spec import parse_request


def request_draft(request: str) -> str:
    """The draft `builder spec` writes for `request`."""
    return draft_of(request)[0]


@pytest.mark.parametrize("request_text, record, fields", [
    ("This app lets me record books I have read.", "book", ["title"]),
    ("I want to manage projects and tasks.", "project", ["name"]),
    ("Ứng dụng quản lý công việc", "task", ["tiêu đề"]),
])
def test_a_record_without_stated_fields_gets_no_invented_description_bug(request_text, record, fields):
    spec = parse_request(request_text)
    entity = next(e for e in spec.data_model if e.name == record)
    assert [f.name for f in entity.fields] == fields
    assert "description" not in request_draft(request_text) and "mô tả" not in request_draft(request_text)


def test_a_stated_description_is_still_a_field():
    spec = parse_request("Books with a title and a description.")
    assert [f.name for f in spec.data_model[0].fields] == ["title", "description"]


@pytest.mark.parametrize("request_text", [
    "Keep my notes with a title and a body so I can find them without having to search through paper.",
    "Track notes with a title and a body, without needing to sort them.",
    "Track notes with a title and a body; I don't have to filter them.",
])
def test_without_having_to_search_is_no_search_feature_bug(request_text):
    spec = parse_request(request_text)
    assert spec.features == [] and "kind = " not in request_draft(request_text)


def test_a_search_that_is_asked_for_is_still_built():
    spec = parse_request("Keep my notes with a title and a body. I can search notes by title.")
    assert [(f.kind, f.entity) for f in spec.features] == [("search", "note")]


def test_what_the_user_need_not_do_asks_for_nothing_in_the_accounting():
    spec = parse_request("Track notes with a title and a body.")
    acc = account_text("I can keep notes without having to search", spec)
    assert acc.words["search"] == NEGATED and acc.unaccounted == []


@pytest.mark.parametrize("request_text", [
    "This is an app for tracking my recipes with a name.",
    "It is a tool for tracking recipes with a name.",
    "This app lets me track my recipes with a name.",
])
def test_a_pronoun_is_never_the_app_title_bug(request_text):
    title = parse_request(request_text).title
    assert title == "Recipe App" and 'title = "Recipe App"' in request_draft(request_text)


def test_a_capitalised_name_before_is_a_still_names_the_app():
    assert parse_request("Lifting Diary is a personal workout tracker. Workouts have a date.").title == "Lifting Diary"


@pytest.mark.parametrize("request_text", [
    "Staff log animals with species, name and age. Show only young animals (less than 2 years of age).",
    "Animals have a name and an age. List the older animals (more than 10 years old).",
    "Members have a name. Highlight loans (longer than 14 days).",
])
def test_a_comparison_in_brackets_is_no_field_list_bug(request_text):
    """Bug (trial 2026-12-07b, D4): "young animals (less than 2 years of age)" gave the animal a
    field `less` — a bracket after a record was read as its field list, whatever it opened with. A
    bracket opening with a comparison ("less/more/longer … than") states a condition on the records;
    the clause stays not built, naming what the spec does not do, instead of an invented field."""
    spec = parse_request(request_text)
    names = {f.name for e in spec.data_model for f in e.fields}
    assert not names & {"less", "more", "longer", "than"}, names
    assert "not_built" in request_draft(request_text)
