"""#13: every clause of a request is mapped to requirements, reported not built, or context."""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec import parse_request
from harness.offline.spec.clauses import MAX_CLAUSES, split_clauses
from harness.validation.spec_validator import validate_spec

SEED_EN = "Build me a task management web app with authentication, projects, tasks, and a dashboard."
SEED_VI = ("Xây dựng ứng dụng web quản lý công việc có đăng nhập, dự án, công việc và bảng "
           "điều khiển")
TODO = "Build a Simple Todo App with add/list/complete"


def statuses(spec) -> list[tuple[str, str]]:
    return [(c.text, c.status) for c in spec.clauses]


@pytest.mark.parametrize("text, clauses", [
    ("Hi there! Build a todo app.", ["Hi there!", "Build a todo app."]),
    ("- tasks\n- projects\n* notes", ["tasks", "projects", "notes"]),
    ("1. add books\n2) list books", ["add books", "list books"]),
    ("projects and tasks; tasks can be marked complete", ["projects and tasks", "tasks can be marked complete"]),
    ("As a user, I want to add notes so that I remember. So that it works.",
     ["As a user, I want to add notes so that I remember. So that it works."]),
    ("a library app, e.g. for books. Members borrow books", ["a library app, e.g. for books.", "Members borrow books"]),
    ("", []),
    # a hard-wrapped line continues the sentence; a bullet, a capital or a sentence end does not
    ("Show the recipe details, including ingredients,\nsteps, and an image.\nServings are shown",
     ["Show the recipe details, including ingredients, steps, and an image.", "Servings are shown"]),
    ("- a card with a title, number of people\n  it serves and a photo\n- date\n- amount",
     ["a card with a title, number of people it serves and a photo", "date", "amount"]),
    ("Tasks:\nlist them\nUpload files", ["Tasks:", "list them", "Upload files"]),
])
def test_split_clauses(text, clauses):
    assert split_clauses(text) == clauses


def test_a_request_with_more_clauses_than_the_cap_is_refused_with_the_cap_stated():
    with pytest.raises(SpecError, match=f"at most {MAX_CLAUSES}"):
        parse_request("\n".join(f"- item {n}" for n in range(500)))


@pytest.mark.parametrize("request_text", [SEED_EN, TODO, SEED_VI])
def test_seed_and_todo_have_every_clause_mapped(request_text):
    spec = parse_request(request_text)
    assert spec.clauses and all(c.status == "mapped" and c.reqs for c in spec.clauses)
    assert validate_spec(spec, request_text) == []


def test_greeting_is_context_and_unknown_asks_are_not_built():
    spec = parse_request("Hi there! I need an app to manage recipes. Send SMS reminders to my friends.")
    assert statuses(spec) == [("Hi there!", "context"), ("I need an app to manage recipes.", "mapped"),
                              ("Send SMS reminders to my friends.", "not_built")]
    reminder = spec.clauses[2]
    req = spec.requirement(reminder.reqs[0])
    assert req.capability == "unsupported" and req.text == "Send SMS reminders to my friends"
    assert '"Send SMS reminders"' in reminder.reason   # the accounting's words (trial D7)


def test_unknown_ask_next_to_an_entity_is_not_covered_by_the_entity():
    # #13: "accept card payments" became a payments table and PASSed
    spec = parse_request("An app for recipes. Accept card payments with Stripe.")
    assert [e.ident for e in spec.data_model] == ["recipe"]
    assert statuses(spec)[1] == ("Accept card payments with Stripe.", "not_built")


@pytest.mark.parametrize("request_text, expected", [
    ("A page with a header, a modal and a button to add tasks", ["task"]),
    ("Track expenses. See https://example.com or mail bob@example.com", ["expense"]),
    ("Users can manage invoices in our professional dashboard. Sync them with Notion", ["invoice"]),
    ("I'm a teacher and I need to keep track of my students", ["student"]),
    ("Build a React app to manage books", ["book"]),
])
def test_entities_come_only_from_entity_positions(request_text, expected):
    assert [e.ident for e in parse_request(request_text).data_model] == expected


def test_a_requested_stack_the_generator_does_not_build_is_not_built():
    spec = parse_request("Build a React app to manage books")
    (clause,) = spec.clauses
    assert clause.status == "not_built" and "not React" in clause.reason


def test_purpose_of_a_user_story_is_context_not_an_entity():
    spec = parse_request("I want to add a transaction with a date and amount, so that I can review my activities")
    assert [e.ident for e in spec.data_model] == ["transaction"]
    assert spec.clauses[0].status == "mapped"


@pytest.mark.parametrize("request_text", ["hello", "Build a 3D racing game", "Send SMS reminders"])
def test_nothing_buildable_is_a_spec_error_listing_the_clauses(request_text):
    with pytest.raises(SpecError) as err:
        parse_request(request_text)
    assert f'C-001 "{request_text}"' in str(err.value)


def test_cap_on_entities_names_the_dropped_ones_in_a_not_built_clause():
    letters = "bcdfgkmpt"
    nouns = [f"zork{a}{b}s" for a in letters for b in letters][:30]
    spec = parse_request("An app to manage " + ", ".join(nouns))
    assert len(spec.data_model) == 20
    assert "20 more" not in " ".join(spec.notes) and "10 more entities ignored (cap 20)" in spec.notes
    (clause,) = spec.clauses
    assert clause.status == "not_built" and "more entities than the cap" in clause.reason


@pytest.mark.parametrize("request_text, entity, field, kind, extra", [
    ("tasks with a title and priority (low, medium, high)", "task", "priority", "enum",
     {"enum_values": ["low", "medium", "high"]}),
    ("Users can rate recipes from 1 to 5 stars", "recipe", "rating", "rating",
     {"min_value": 1.0, "max_value": 5.0}),
    ("expenses with an amount and a date", "expense", "amount", "money", {}),
    ("add a transaction with details such as date, amount and type (income/expense)", "transaction", "type",
     "enum", {"enum_values": ["income", "expense"]}),
])
def test_fields_get_kinds_enums_and_ranges(request_text, entity, field, kind, extra):
    ent = parse_request(request_text).entity(entity)
    col = next(f for f in ent.fields if f.ident == field)
    assert col.kind == kind
    for key, value in extra.items():
        assert getattr(col, key) == value


@pytest.mark.parametrize("request_text", [
    "claims with a status: draft / submitted / approved",
    "Track claims: draft -> submitted -> approved",
])
def test_workflows_become_ordered_states(request_text):
    spec = parse_request(request_text)
    assert spec.entity("claim").workflow == ["draft", "submitted", "approved"]
    assert any(r.capability == "workflow" for r in spec.requirements)


def test_vietnamese_unknown_words_make_the_clause_not_built():
    spec = parse_request("Ứng dụng quản lý sách và khủng long")
    assert spec.clauses[0].status == "not_built" and "khủng" in spec.clauses[0].reason


def test_the_head_of_an_unexplained_compound_is_no_record_type():
    """Regression (vue-starter's inventory example): "keep track of stock levels across locations"
    and "stats showing stock levels" made a `level` CRUD (a PASS requirement nobody asked for)
    while "stock" stayed unexplained; now "levels" is unexplained with it."""
    spec = parse_request("An inventory app to keep track of stock levels across locations.\n"
                         "- Product catalog — full CRUD for products\n"
                         "- Dashboard — real stats showing stock levels")
    assert [e.ident for e in spec.data_model] == ["product"]
    assert '"stock levels"' in spec.clauses[0].reason and spec.clauses[0].status == "not_built"
    # one mention of the record on its own is enough to keep it
    kept = parse_request("An app to manage products and stock levels. Users create, edit and delete levels.")
    assert {"product", "level"} <= {e.ident for e in kept.data_model}


LIBRARY = """As an library user, I want to see a list of books that are in the library, before I go to the library. - GET request

As a library manager, when I have a new book, I want to add it to the library.  - POST request

As library user, when I am interested in a book, I want to see the title and author of that book
"""


def test_library_stories_with_method_notes_a_before_reason_and_fields_of_that_book():
    """github.com/alfasoftware/library's key stories: "GET request" / "POST request" were not built
    ("request" unexplained), "before I go to the library" failed the first story, and "the title
    and author of that book" left both words unexplained (no author field)."""
    spec = parse_request(LIBRARY)
    assert [c.status for c in spec.clauses] == ["not_built", "context", "not_built", "context", "not_built"]
    # #48: the library as a place is no element of the spec: those words are named, not dropped
    # a managing role in a story's "As a …" asks for its rights (no role in this spec): named too
    assert [c.unaccounted for c in spec.clauses] == [["library", "go"], [], ["manager", "library"], [],
                                                     ["library", "interested"]]
    assert [f.ident for f in spec.entity("book").fields] == ["title", "author"]
    kept = parse_request("An app to manage notes. GET requests are logged to a file.")
    assert kept.clauses[1].status == "not_built"   # more than a method note: an ask


def test_a_lone_plural_bullet_and_rest_time_are_asks_not_context_or_the_rest_api():
    """Regression (github.com/Wendi-WL/workout-tracker: "information such as: - weight - sets - reps
    - rest time"): "sets" was context (a verb form, dropped silently) and "rest time" was mapped to
    the REST API's health requirement (claimed built)."""
    spec = parse_request("A workout app.\n- sets\n- rest time")
    assert [(c.status, c.reason.split(";")[0]) for c in spec.clauses[1:]] == [
        ("not_built", "no offline rule reads what this clause asks"), ("not_built", 'not built: "rest"')]   # trial D7
    api = parse_request("A todo app with a REST API.\n- edit")
    assert [c.status for c in api.clauses] == ["mapped", "mapped"]   # the REST API and a lone verb stay built
