"""Background sentences are set aside as `context`, never counted as unbuilt asks; a sentence that
looks like background but asks stays counted (harness/offline/accounting/context.py).

The shop-inventory request is a public request (https://pac9.github.io/sweet_shop) from the
stranger trial of 2026-12-06: the app it asks for was built, and the run still ended BUILD FAILED
on its background sentences."""

from __future__ import annotations

import pytest

from harness.models.spec import AppSpec, DataEntity, EntityField, Requirement
from harness.offline.accounting.account import account_text
from harness.offline.accounting.draft import draft_toml
from harness.offline.accounting.show import clause_lines
from harness.offline.spec import parse_request
from harness.validation.spec_validator import validate_spec

SHOP = ("Build an app which allows a shopkeeper to track their shop's inventory. This is not an app which the "
        "customer will see, it is an admin/management app for the shop workers. The inventory should track "
        "individual products, including a name, description, stock quantity, buying cost, and selling price. "
        "The inventory should track manufacturers, including a name and any other appropriate details. The shop "
        "can sell anything you like, but you should be able to create, edit and delete manufacturers and products "
        "separately.")
LIBRARY_SCOPE = ("Books with a title. For the sake of simplicity, you don't have to implement sessions and roles, "
                 "you can assume that the app will be used by the librarian only.")


def test_bug_shop_inventory_background_sentences_fail_the_run():
    spec = parse_request(SHOP)
    by_id = {c.id: c for c in spec.clauses}
    assert by_id["C-002"].status == "context"
    assert by_id["C-002"].reason.startswith("set aside as context: says what the app need not do")
    assert [c.status for c in spec.clauses] == ["mapped", "context", "mapped", "mapped", "mapped"]
    assert not [r for r in spec.requirements if r.capability == "unsupported"]
    assert [r.id for r in spec.requirements] == [f"REQ-{n:03d}" for n in range(1, len(spec.requirements) + 1)]
    assert all(r in {q.id for q in spec.requirements} for c in spec.clauses for r in c.reqs)
    assert validate_spec(spec, SHOP) == []
    words = by_id["C-001"].words
    assert words["inventory"] == "stock count product.stock quantity" and words["shopkeeper"] == "who uses it (actor)"
    assert by_id["C-005"].words["separately"] == "crud of each: products, manufacturers"
    assert by_id["C-005"].words["sell"] == "context: a choice left to the builder"


def test_bug_library_scope_sentence_counts_as_an_unbuilt_ask():
    spec = parse_request(LIBRARY_SCOPE)
    clause = spec.clauses[1]
    assert clause.status == "context" and not clause.unaccounted
    assert clause.words["sessions"] == "no login, as asked" and clause.words["roles"] == "no account roles, as asked"
    assert not spec.auth and not spec.roles


def _shop_spec() -> AppSpec:
    return parse_request(SHOP)


@pytest.mark.parametrize("sentence", [
    "The shopkeeper must be able to see stock levels",
    "The shop workers need a weekly stock report",
    "This is an app which the customer will use to order cakes",
    "It is not possible to delete a manufacturer that still has products",
    "No customer can see another customer's orders",
    "No more than 5 products per manufacturer",
    "It is an admin app where admins can ban users",
    "This app is for tracking invoices",
    "You can assume each product has a barcode",
    "This is not an app which the customer will see, but shop workers must log in",
    "The shop can sell anything you like and shop workers can print labels for it",
    "Product descriptions are not required",
    "It is a booking system for a gym",
    "The system is not accessible to the public",
    "This is not a public app",
    "It is an app for the shop workers only",
])
def test_a_sentence_that_looks_like_background_but_asks_stays_counted(sentence):
    acc = account_text(sentence, _shop_spec())
    assert acc.context == ""
    spec = parse_request(f"{SHOP} {sentence}.")
    last = spec.clauses[-1]
    assert last.text.rstrip(".") == sentence and last.status != "context"


@pytest.mark.parametrize("sentence, why", [
    ("This is not an app which the customer will see", "says what the app need not do"),
    ("It is an admin/management app for the shop workers", "describes the app or who uses it"),
    ("It is designed for simple everyday use", "describes the app or who uses it"),
    ("For the sake of simplicity", "why, not what"),
    ("You can assume that the app will be used by the shopkeeper only", "an assumption the builder may make"),
    ("It's an internal tool for the shop workers", "describes the app or who uses it"),
    ("This app will be used by the teachers of our school", "describes the app or who uses it"),
    ("The system is not required to handle payments", "says what the app need not do"),
])
def test_background_sentences_are_context_with_the_reason(sentence, why):
    assert account_text(sentence, _shop_spec()).context == why


def _spec(auth: bool, pages: bool) -> AppSpec:
    reqs = [Requirement(id="REQ-001", text="Users can create, list, view, update and delete tasks", capability="crud",
                        entity="task")]
    if pages:
        reqs.append(Requirement(id="REQ-002", text="The app serves HTML pages for tasks", capability="pages"))
    task = DataEntity(name="task", plural="tasks", ident="task", fields=[EntityField(name="title", ident="title")])
    return AppSpec(auth=auth, data_model=[task], requirements=reqs)


@pytest.mark.parametrize("sentence, word", [("No login required", "login"), ("No clientside required", "clientside"),
                                             ("We do not need a frontend", "frontend")])
def test_a_negated_scope_word_is_realised_only_by_the_spec_lacking_it(sentence, word):
    lacking = account_text(sentence, _spec(auth=False, pages=False))
    assert lacking.words[word] in ("no login, as asked", "no HTML pages, as asked") and not lacking.unaccounted
    having = account_text(sentence, _spec(auth=True, pages=True))
    assert word in " ".join(having.unaccounted) and having.context == ""


@pytest.mark.parametrize("request_text", [
    "Build a Web Application Backend (No clientside required) for tasks with a title.",
    "Tasks with a title; API only.",
    "Tasks with a title; no frontend needed.",
    "Tasks with a title. The frontend is not required.",
])
def test_bug_no_clientside_required_still_builds_html_pages(request_text):
    spec = parse_request(request_text)
    assert not any(r.capability == "pages" for r in spec.requirements)
    assert not any(p.entity for p in spec.pages) and spec.stack.frontend == "FastAPI"
    assert all(c.status != "not_built" for c in spec.clauses), [(c.text, c.reason) for c in spec.clauses]
    # an API-only request: no HTML page at all (tests/test_api_only_app.py), drafted as html = false
    assert not spec.html and "html = false" in draft_toml(spec, spec.clauses, request_text)


def test_a_page_reload_is_no_client_side_ruled_out():
    spec = parse_request("Tasks with a title, shown on a page, updated without a page reload.")
    assert any(r.capability == "pages" for r in spec.requirements)


def test_bug_session_management_becomes_a_session_record():
    spec = parse_request("Students with a name. There should be authentication support with basic session "
                         "management.")
    assert spec.auth and [e.ident for e in spec.data_model] == ["student"]
    clause = spec.clauses[1]
    assert clause.status == "mapped" and clause.words["session"] == "auth"


def test_reading_sessions_stay_a_record():
    spec = parse_request("Reading sessions with a date and pages read. Users log in.")
    assert "session" in {e.name.split()[-1] for e in spec.data_model}


def test_status_and_draft_show_the_clause_set_aside():
    spec = parse_request(SHOP)
    lines = "\n".join(clause_lines(spec.clauses))
    assert "C-002 context" in lines and "set aside as context" in lines
    assert "# set aside as context: says what the app need not do" in draft_toml(spec, spec.clauses, SHOP)


ATTENDANCE = ("Build a Web Application Backend (No clientside required) for student attendance management. There "
              "should be authentication support with basic session management. Basic Functionality: Login. Update "
              "attendance for an entire class / student. Get attendance for a student given a time period. Logout.")


@pytest.mark.parametrize("request_text", [SHOP, LIBRARY_SCOPE, ATTENDANCE])
def test_the_draft_of_a_request_with_context_rebuilds_the_same_requirements(tmp_path, request_text):
    """A set-aside clause's requirement leaves the spec and the ids close up, so the draft (which
    numbers its requirements itself) rebuilds the same list: ids, texts, acceptance."""
    from harness.offline.accounting.run_draft import request_draft
    from harness.offline.spec_file import load_spec_file

    text, spec, _clauses, _error = request_draft(request_text)
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    again = load_spec_file(path)
    assert [(r.id, r.capability, r.entity, r.text, r.acceptance) for r in again.requirements] == [
        (r.id, r.capability, r.entity, r.text, r.acceptance) for r in spec.requirements]


def test_the_coverage_line_names_the_clauses_set_aside():
    from harness.trace.coverage import format_coverage, request_coverage

    spec = parse_request(SHOP)
    matrix = {"requirements": [{"id": r.id, "status": "PASS"} for r in spec.requirements]}
    cov = request_coverage(spec, matrix)
    assert cov["complete"] and [c["id"] for c in cov["set_aside"]] == ["C-002"]
    assert 'Set aside as context (asks for nothing): C-002 "This is not an app' in format_coverage(cov)


SUBJECTS = ("A computer-based system is required to be used in a typical university for subject selection. Users of "
            "this system are students. Every student must enter valid ID and password for being entered to the "
            "system. Each student must be able to select minimum 2 and maximum 5 subjects, therefore, System must "
            "show a subject list from which students can select the subjects. Each subject in the subject list has "
            "attributes like subject ID, Title, batch number, Date and time. Students must be able to change their "
            "selected objects. They must be able to delete and add subjects.")


def test_bug_not_built_reason_names_a_word_the_spec_built_without_saying_where():
    """The trial's subject-selection request (github Radjab02/SubjectSelectionSystem): "no offline rule
    understands "subjects"" beside a spec with a subject column read as if nothing was made of it. Since
    trial D7 the reason names no word an element realises: it says which element the unread ask is of."""
    spec = parse_request(SUBJECTS)
    last = spec.clauses[-1]
    assert last.status == "not_built" and last.unaccounted == []
    assert last.reason.startswith("no offline rule reads what this clause asks of field student.subject"), last.reason
