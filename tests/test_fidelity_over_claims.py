"""#48: `builder bench --fidelity` counts over-claimed clauses — a clause reported built while an
expected item it names is missing from the spec — and the dev set has none."""

from __future__ import annotations

from harness.fidelity import compare, format_row, load_dataset, totals
from harness.models.spec import AppSpec, Clause, DataEntity, EntityField
from harness.offline.spec import parse_request

READING = ("books with title, author, number of pages and a rating from 1 to 5; reading sessions with a date "
           "and pages read for a book; a page that shows how many pages I read per month")
ITEM = {"id": "reading", "expected": {"entities": {"book": ["title", "author", "number of pages", "rating"],
                                                   "reading session": ["date", "pages read", "book"]},
                                      "features": [], "outcome": "failed"}}


def test_a_mapped_clause_naming_a_missing_field_is_an_over_claim():
    spec = AppSpec(data_model=[DataEntity(name="book", plural="books", ident="book",
                                          fields=[EntityField(name="title", ident="title")])],
                   clauses=[Clause(id="C-001", text="books with title and number of pages", status="mapped")])
    item = {"id": "x", "expected": {"entities": {"book": ["title", "number of pages"]}, "features": []}}
    row = compare(item, spec, "complete")
    assert row.over_claims == ['C-001 claims field "number of pages" of book']
    assert totals([row])["over_claimed"] == 1 and "OVER-CLAIMED" in format_row(row)


def test_bug_the_reading_log_over_claimed_its_clauses_and_now_claims_none():
    row = compare(ITEM, parse_request(READING), "failed")
    assert row.fields[0] < row.fields[1]          # "number of pages", "pages read" are still missing …
    assert row.over_claims == []                  # … and no clause says they were built


# Open over-claims found when fresh set 6 (the stranger trials' requests, 89-110) was added; see
# docs/request-coverage.md, "Fresh set 6". Listed so that any other over-claim fails this test, and
# so that fixing one fails it too until its line is removed here.
OPEN_OVER_CLAIMS = {
    "98-recipe-ingredient-lists": ['C-003 claims field "ingredients" of recipe'],
}


def test_the_dev_set_has_no_over_claimed_clause():
    rows = []
    for item in load_dataset():
        try:
            spec = parse_request(item["request"])
        except Exception:   # a spec-stage stop claims nothing
            continue
        rows.append(compare(item, spec, "failed" if any(c.status == "not_built" for c in spec.clauses) else "complete"))
    found = {r.id: r.over_claims for r in rows if r.over_claims}
    assert found == OPEN_OVER_CLAIMS
