"""The parser recognises period summaries and computed values (patterns/features.jsonl, passes
"period summaries" and "computed values") and gives the spec language's `period_summary` feature
and `computed` values (docs/spec-language.md) — only when the record has the fields they need."""

from __future__ import annotations

import pytest

from harness.agents.spec_agent import postprocess
from harness.errors import SpecError
from harness.offline.spec import parse_request
from harness.offline.spec.rules import rule_based_spec


def _spec(request: str):
    return postprocess(rule_based_spec(request))


def _entity(spec, ident: str):
    return next(e for e in spec.data_model if e.ident == ident)


def _summaries(spec) -> list[tuple[str, list[str]]]:
    return [(f.entity, f.fields) for f in spec.features if f.kind == "period_summary"]


@pytest.mark.parametrize("request_text, summary", [
    ("A reading log with books (title, pages) and reading sessions (date, pages read); show pages read per month.",
     ("session_item", ["pages_read"])),
    ("Reading sessions have a date and pages read. Show the total pages read per week and per month.",
     ("session_item", ["pages_read"])),
    ("Tasks have a title and a date. Show how many tasks I completed each week.", ("task", [])),
    ("Tasks have a title and a due date; a weekly summary of completed tasks.", ("task", [])),
    ("Expenses have an amount and a date; show totals by month.", ("expense", [])),
])
def test_a_period_phrasing_gives_the_summary_and_its_requirement(request_text, summary):
    spec = _spec(request_text)
    assert _summaries(spec) == [summary]
    req = next(r for r in spec.requirements if r.text.startswith("Users see weekly, monthly and yearly"))
    assert req.entity == summary[0] and "/summary?period=" in req.acceptance
    assert all(c.status == "mapped" for c in spec.clauses), [(c.text, c.reason) for c in spec.clauses]


def test_pages_read_is_a_column_and_books_keep_their_pages():
    """Before: 'pages' in 'books (title, pages)' and 'pages read' was the HTML-pages word and the
    column was lost."""
    spec = _spec("A reading log with books (title, pages) and reading sessions (date, pages read).")
    assert "pages" in [f.ident for f in _entity(spec, "book").fields]
    assert "pages_read" in [f.ident for f in _entity(spec, "session_item").fields]


@pytest.mark.parametrize("request_text", [
    "Tasks have a title and a date. I water the plants every week.",
    "Users can add their weekly total income. Incomes have an amount and a date.",
    "Books have a title and a date. Read a book per week.",
    "Notes have a title. Show the notes of each month.",
])
def test_a_period_that_asks_for_no_summary_gives_none(request_text):
    assert _summaries(_spec(request_text)) == []


def test_a_summary_of_records_without_a_date_is_not_built_with_the_reason():
    spec = _spec("Books have a title and pages read. Show pages read per month.")
    assert _summaries(spec) == []
    clause = spec.clauses[-1]
    assert clause.status == "not_built" and "needs a field of kind date" in clause.reason


def test_a_summary_of_a_field_no_record_has_is_not_built():
    spec = _spec("Books have a title and a page count. Show pages read per month.")
    assert _summaries(spec) == []
    clause = spec.clauses[-1]
    assert clause.status == "not_built" and "names no record with that number field" in clause.reason


@pytest.mark.parametrize("request_text, record, computed", [
    ("A plant watering tracker: plants have a name, last watered date and a watering interval in days; "
     "show the next watering date.", "plant",
     {"next_watering_date": "last_watered_date + watering_interval days"}),
    ("Tasks have a title and a due date. Show the days until the due date.", "task",
     {"days_until_due_date": "due_date - today"}),
    ("Loans have a member and a due date. Show overdue loans.", "loan", {"overdue": "due_date < today"}),
    ("Plants have a name, a last watered date and a watering interval in days. Show the next watering date "
     "and an overdue label.", "plant",
     {"next_watering_date": "last_watered_date + watering_interval days", "overdue": "not (next_watering_date >= today)"}),
    ("Plants have a name, a last watered date and a watering interval in days. Overdue plants are shown first.",
     "plant", {"overdue": "not (last_watered_date + watering_interval days >= today)"}),
])
def test_a_computed_phrasing_gives_the_value_the_generator_works_out(request_text, record, computed):
    spec = _spec(request_text)
    e = _entity(spec, record)
    assert e.computed == computed
    req = next(r for r in spec.requirements if r.capability == "computed")
    assert req.entity == record and all(name in req.acceptance for name in computed)


def test_overdue_of_a_record_with_a_workflow_leaves_out_the_finished_ones():
    spec = _spec("Loans have a due date and a status: open, returned. Show overdue loans.")
    assert _entity(spec, "loan").computed == {"overdue": "due_date < today and status != 'returned'"}


@pytest.mark.parametrize("request_text", [
    "Tasks have a title. Show overdue tasks.",                         # no due date
    "Plants have a name and a species. Show the next watering date.",  # no last date, no interval
    "Books have a title. Go to the next page.",
])
def test_a_computed_value_without_the_fields_it_needs_is_not_claimed(request_text):
    spec = _spec(request_text)
    assert all(not e.computed for e in spec.data_model)
    assert not [r for r in spec.requirements if r.capability == "computed"]


def test_the_computed_draft_builds_as_a_spec_file(tmp_path):
    """The draft TOML the builder writes for such a request is a spec file the reader accepts
    (the expressions type-check against the fields)."""
    from harness.offline.accounting.draft import draft_toml
    from harness.offline.spec_file import load_spec_file

    spec = _spec("Plants have a name, a last watered date and a watering interval in days. "
                 "Show the next watering date and an overdue label.")
    path = tmp_path / "plants.toml"
    path.write_text(draft_toml(spec, spec.clauses), encoding="utf-8")
    built = load_spec_file(path)
    assert built.data_model[0].computed == _entity(spec, "plant").computed


def test_bug_plant_watering_tracker_builds_every_clause():
    """The brief's request: 'watering' in 'A plant watering tracker' left the first clause not built
    (a word of the app's name that is a word of its own fields is no ask of its own), and the field
    was 'last date' (the participle before 'date' was dropped), so no next watering date."""
    spec = _spec("A plant watering tracker: plants have a name, last watered date and a watering interval "
                 "in days; show the next watering date.")
    assert _entity(spec, "plant").computed == {"next_watering_date": "last_watered_date + watering_interval days"}
    assert all(c.status == "mapped" for c in spec.clauses)


def test_an_app_name_word_that_is_no_field_word_is_still_an_ask():
    spec = _spec("A watering app: plants have a name.")
    assert spec.clauses[0].status == "not_built" and "watering" in spec.clauses[0].reason


def test_records_shown_each_week_without_a_count_are_no_summary():
    assert _summaries(_spec("Tasks have a title and a date. Show the tasks due each week.")) == []


@pytest.mark.parametrize("request_text", [
    "Expenses have an amount and a date. Monthly totals of expenses.",
    "Expenses with an amount and a date. Monthly totals of expenses.",
    "Expenses with an amount and a date. Weekly reports of expenses.",
])
def test_bug_monthly_totals_of_expenses_creates_a_total_record(request_text):
    spec = parse_request(request_text)
    assert [e.ident for e in spec.data_model] == ["expense"]
    assert _summaries(spec) == [("expense", [])]
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


def test_bug_monthly_totals_alone_is_no_total_record():
    # expenses named nowhere else are no record here: the clause is not built, no `total` record made
    with pytest.raises(SpecError, match="no data entity recognized"):
        parse_request("Monthly totals of expenses.")
    spec = parse_request("Tasks with a title. Monthly totals of expenses.")
    assert [e.ident for e in spec.data_model] == ["task"] and not _summaries(spec)
    assert spec.clauses[1].status == "not_built"
