"""Regression: "Perform general CRUD operations on Books and Members" was reported NOT built while the
build made books' and members' CRUD — "perform" was not a verb the offline rules know. Found in a
public library-management README's feature list (github.com/MonuKumar1/LibraryManagementSystem)."""

from harness.offline.spec import parse_request

LIST = ("The following functionalities are there in application:\n- Books with stock maintained\n- Members\n"
        "- Perform general CRUD operations on Books and Members\n- Charge a rent fee on book returns\n")


def clause(spec, text):
    return next(c for c in spec.clauses if c.text == text)


def test_bug_perform_crud_clause_maps_to_the_crud_it_asks_for():
    spec = parse_request(LIST)
    crud = {r.id for r in spec.requirements if r.capability == "crud" and r.entity in {"book", "member"}}
    found = clause(spec, "Perform general CRUD operations on Books and Members")
    assert found.status == "mapped" and len(crud) == 2 and set(found.reqs) == crud


def test_perform_does_not_make_an_unknown_ask_built():
    spec = parse_request(LIST + "- Perform overdue calculations nightly\n")
    assert clause(spec, "Charge a rent fee on book returns").status == "not_built"
    assert clause(spec, "Perform overdue calculations nightly").status == "not_built"
