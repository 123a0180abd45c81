"""A Given/When/Then requirements document from a public gist (stevebrownlee/3c7a58eb, "Book Club
Application Requirements"): offline, every "Acceptance Criteria" heading made a `criterion` record
type and "a staff member has information" a `member` one, so the staff-only clauses looked built;
"upcoming book club meetings" / "future meetings" were claimed built by the plain list of every
meeting; a review saved "with a reference to both the user and the book" got no link to its book;
"a list of books along with their authors and publication years" reported the book's own fields
as unknown words."""

from pathlib import Path

import pytest

from harness.offline.spec.rules import rule_based_spec

DOCUMENT = (Path(__file__).parent / "data" / "book_club_acceptance_criteria.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def spec():
    return rule_based_spec(DOCUMENT)


def _clause(spec, start):
    return next(c for c in spec.clauses if c.text.startswith(start))


def test_book_club_headings_and_staff_are_no_record_types_bug(spec):
    assert {e.ident for e in spec.data_model} >= {"book", "review", "meeting"}
    assert not {"criterion", "member", "staff"} & {e.ident for e in spec.data_model}
    assert _clause(spec, "Acceptance Criteria").status == "context"
    staff = _clause(spec, "Description: Staff members can add new books")
    assert staff.status == "not_built" and '"Staff"' in staff.reason   # the role is not built


def test_book_club_upcoming_meetings_are_not_claimed_by_the_plain_list_bug(spec):
    for start, phrase in (("Description: Users can see a schedule of upcoming", "upcoming book club meetings"),
                          ("Then they should see a list of future meetings", "future meetings")):
        clause = _clause(spec, start)
        assert clause.status == "not_built" and phrase in clause.reason, clause.reason


def test_book_club_review_references_its_book_bug(spec):
    assert spec.entity("review").parent == "book"
    assert _clause(spec, "Then this review should be saved").status == "mapped"


def test_book_club_fields_named_beside_their_records_are_the_records_bug(spec):
    assert {"author", "publication_year"} <= {f.ident for f in spec.entity("book").fields}
    assert _clause(spec, "Then they should see a list of books along with their authors").status == "mapped"
    assert _clause(spec, "Description: Users should be able to view a list of all books").status == "mapped"
    assert _clause(spec, "When they submit a review including a rating and text").status == "mapped"


@pytest.mark.parametrize("request_text, entities", [
    ("Manage gym members with a name and a phone. Members book classes.", ["member", "class_item"]),
    ("Staff members can add books with a title.", ["book"]),
])
def test_members_stay_records_unless_they_are_staff(request_text, entities):
    assert [e.ident for e in rule_based_spec(request_text).data_model] == entities
