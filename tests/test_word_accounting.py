"""#48: every content word of every clause is realised by the finished spec, a function/framing
word of the closed lists, or its clause is not built naming the words (harness/offline/accounting)."""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import FUNCTION, account_text
from harness.offline.accounting.lexicon import WORDS_DIR, stem
from harness.models.spec import AppSpec, DataEntity, EntityField
from harness.offline.spec import parse_request
from harness.validation.spec_validator import validate_spec

SEED_EN = "Build me a task management web app with authentication, projects, tasks, and a dashboard."
SEED_VI = "Xây dựng ứng dụng web quản lý công việc có đăng nhập, dự án, công việc và bảng điều khiển"
TODO = "Build a Simple Todo App with add/list/complete"
READING = ("books with title, author, number of pages and a rating from 1 to 5; reading sessions with a date "
           "and pages read for a book; a page that shows how many pages I read per month")


def unaccounted(spec) -> dict[str, list[str]]:
    return {c.text: c.unaccounted for c in spec.clauses if c.unaccounted}


@pytest.mark.parametrize("request_text, words", [
    ("Create a 2048 game", ["2048"]),
    ("A booking site for a tennis court", ["booking", "tennis"]),
    ("I want to build a game tracker for all the boardgame game I do with my friends", ["boardgame", "friends"]),
])
def test_bug_a_clause_with_a_word_nothing_realises_is_not_built_naming_it(request_text, words):
    spec = parse_request(request_text)
    clause = spec.clauses[0]
    assert clause.status == "not_built" and clause.unaccounted == words
    req = spec.requirement(next(r for r in clause.reqs if spec.requirement(r).capability == "unsupported"))
    assert all(f'"{w}"' in req.text for w in words) and all(f'"{w}"' in clause.reason for w in words)
    assert validate_spec(spec, request_text) == []


def test_bug_reading_log_names_pages_read_and_month_and_the_unlinked_book():
    spec = parse_request(READING)
    # "number of pages" and "pages read" are columns now, and "how many pages I read per month" the
    # sessions' period summary of pages read; the sessions' book is still not linked
    assert [c.status for c in spec.clauses] == ["mapped", "not_built", "mapped"]
    assert unaccounted(spec) == {"reading sessions with a date and pages read for a book": ["book"]}
    first = spec.clauses[0].words
    assert first["1"] == first["5"] == "bound book.rating 1..5" and first["title"] == "field book.title"


@pytest.mark.parametrize("request_text", [SEED_EN, TODO, SEED_VI])
def test_seed_and_todo_have_every_word_accounted(request_text):
    spec = parse_request(request_text)
    assert all(c.status == "mapped" and not c.unaccounted and c.words for c in spec.clauses)


def test_the_words_are_recorded_per_clause_in_the_spec_json():
    spec = parse_request(SEED_EN)
    words = AppSpec.model_validate_json(spec.model_dump_json()).clauses[0].words
    assert words["authentication"] == "auth" and words["dashboard"] == "dashboard"
    assert words["projects"] == "entity project" and words["me"] == FUNCTION


def test_vietnamese_gets_the_same_accounting():
    spec = parse_request("Ứng dụng quản lý sách: mỗi cuốn sách có tiêu đề, tác giả và năm xuất bản. "
                         "Người dùng có thể tìm kiếm sách.")
    assert spec.language == "vi"
    first, second = spec.clauses
    assert first.status == "not_built" and first.unaccounted == ["tác giả", "năm xuất bản"]
    assert first.words["sách"] == "entity book"
    assert second.status == "mapped" and second.words["tìm"].startswith("feature search")


def test_an_entity_after_a_linking_word_needs_a_relation():
    linked = AppSpec(data_model=[DataEntity(name="book", plural="books", ident="book"),
                                 DataEntity(name="session", plural="sessions", ident="session_item", parent="book")])
    assert account_text("sessions for a book", linked).unaccounted == []
    unlinked = linked.model_copy(deep=True)
    unlinked.data_model[1].parent = None
    assert account_text("sessions for a book", unlinked).unaccounted == ["book"]
    assert account_text("books and sessions", unlinked).unaccounted == []   # a list names no link


def test_numbers_are_accounted_only_by_a_bound_or_a_name():
    spec = AppSpec(data_model=[DataEntity(name="movie", plural="movies", ident="movie", fields=[
        EntityField(name="stars", ident="stars", kind="rating", min_value=1, max_value=5)])])
    assert account_text("movies rated from 1 to 5 stars", spec).unaccounted == []
    assert account_text("movies rated from 1 to 10 stars", spec).unaccounted == ["10"]


def test_a_heading_is_context_but_a_short_ask_is_not():
    spec = parse_request("Users can manage tasks.\nMVP\nWeekly summary")
    by_text = {c.text: c for c in spec.clauses}
    assert by_text["MVP"].status == "context" and not by_text["MVP"].unaccounted
    assert by_text["Weekly summary"].status == "not_built"
    assert by_text["Weekly summary"].unaccounted == ["Weekly summary"]


def test_the_word_lists_are_data_files_with_their_rule_written_in_them():
    names = sorted(p.name for p in WORDS_DIR.glob("*.txt"))
    assert names == ["accounting_closed_en.txt", "app_names_en.txt", "asks_en.txt", "background_en.txt", "comparison_asks_en.txt", "elements_en.txt", "framing_en.txt",
                     "framing_position_en.txt", "function_en.txt",
                     "function_vi.txt", "identity_asks_en.txt", "introducing_en.txt", "list_verbs_en.txt", "open_lists_en.txt", "record_sets_en.txt", "record_views_en.txt", "relation_asks_en.txt",
                     "same_records_en.txt",
                     "vague_en.txt"]
    for path in WORDS_DIR.glob("*.txt"):
        assert path.read_text(encoding="utf-8").startswith("#"), path   # each says what belongs in it
    assert stem("bookings") == stem("booked") == stem("book")


def test_the_accounting_reads_no_parser_conclusions():
    """It may read the Vietnamese dictionary (what a phrase means), never the parser's passes."""
    import ast
    from pathlib import Path

    import harness.offline.accounting as pkg

    for name in ("account.py", "context.py", "elements.py", "lexicon.py", "apply.py", "draft.py", "show.py",
                 "same_records.py", "framing_position.py"):
        path = Path(pkg.__file__).parent / name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("harness.offline.spec"):
                assert node.module == "harness.offline.spec.lexicon_vi", (path.name, node.module)


def test_bug_no_clause_list_is_cut():
    """The spec-stage error listed clauses up to ~1,000 characters, and the coverage line and the
    spec warnings stopped after six not-built clauses."""
    from harness.errors import SpecError
    from harness.trace.coverage import format_coverage, request_coverage, spec_warnings

    stop = "\n".join(f"- make it sparkle number {n} with a lovely gradient background" for n in range(30))
    with pytest.raises(SpecError) as exc:
        parse_request(stop)
    assert "number 29 with" in str(exc.value) and len(exc.value.clauses) == 30
    asks = "Users can manage tasks.\n" + "\n".join(f"- a {w} gadget" for w in
                                                   "red blue green pink gold grey teal navy".split())
    spec = parse_request(asks)
    shown = format_coverage(request_coverage(spec, {"requirements": []}))
    assert all(f"a {w} gadget" in shown for w in ("red", "navy"))
    assert len([w for w in spec_warnings(spec) if w.startswith("not built")]) == 8
