"""The pattern tables (harness/offline/spec/patterns/*.jsonl): every pattern's own example
sentence yields what the pattern says it yields — the examples are the patterns' specification."""

from __future__ import annotations

import re

import pytest

from harness.offline.spec.pattern_examples import example_yield
from harness.offline.spec.patterns import TABLES_DIR, all_patterns, pass_patterns, pattern_set, run_patterns
from harness.offline.spec.wordsets import set_names, word_set

PATTERNS = all_patterns()
KEYS = {"name", "pass", "go_on", "example", "yields", "before", "not_before", "clause_has", "clause_lacks", "clause_has_all", "request_has", "clause_before_has", "before_has", "next_clause_not_re", "re_cased", "column_of", "tokens", "unless",
        "if_set", "unless_set", "clause_re", "clause_not_re", "clause_max_words", "cross_clauses",
        "unless_record", "unless_entity", "unless_belongs", "belongs", "followed_by", "same", "action", "table"}


@pytest.mark.parametrize("pattern", PATTERNS, ids=[p["table"] for p in PATTERNS])
def test_the_example_yields_what_the_pattern_says(pattern):
    assert set(pattern) <= KEYS and pattern["tokens"] and pattern["yields"], pattern["table"]
    assert example_yield(pattern) == pattern["yields"]


def test_pattern_names_are_unique_and_every_set_they_name_exists():
    names = [p["name"] for p in PATTERNS]
    assert len(names) == len(set(names))
    for p in PATTERNS:
        specs = p["tokens"] + p.get("before", []) + [m.get("where", {}) for m in p["action"].get("mark", [])]
        for spec in specs:
            for key in ("set", "not_set"):
                for name in [spec[key]] if isinstance(spec.get(key), str) else spec.get(key, []):
                    assert name in ("RECORDS", "FIELDS") or pattern_set(name), (p["table"], name)


def test_tables_are_grouped_by_grammatical_role():
    assert {p.stem for p in TABLES_DIR.glob("*.jsonl")} <= {
        "entity_introducers", "field_lists", "relations", "features", "framing", "vietnamese"}


def test_every_set_in_the_data_file_is_named_by_a_pattern_or_by_the_code():
    from pathlib import Path

    import harness.offline.spec as spec

    code = [p.read_text(encoding="utf-8") for p in Path(spec.__file__).parent.glob("*.py")]
    named = str(PATTERNS) + "".join(code)

    def by_section(n: str) -> bool:   # WORDS = word_sets("entities") ... WORDS.sep
        section, _, key = n.partition(".")
        return any(f'word_sets("{section}")' in text and re.search(rf"\bWORDS\.{key}\b", text) for text in code)
    assert [n for n in set_names() if f"'{n}'" not in named and f'"{n}"' not in named and not by_section(n)] == []


def test_an_unknown_pass_or_set_is_an_error_naming_it():
    with pytest.raises(KeyError, match="no pattern belongs to the pass 'nonsense'"):
        pass_patterns("nonsense")
    with pytest.raises(KeyError, match="no word set named 'nonsense'"):
        word_set("nonsense")


def test_the_pass_table_runs_every_table_pass_and_says_why_each_pass_is_where_it_is():
    from harness.offline.spec.rules import PASSES

    names = [name for name, _run, _why in PASSES]
    assert len(names) == len(set(names))
    assert all(why.strip() and "\n" not in why for _n, _r, why in PASSES)
    # a table pass says so; a code pass says what a pattern cannot say
    assert all(why.startswith("table;") or "code: " in why for _n, _r, why in PASSES)
    assert {p["pass"] for p in PATTERNS} <= set(names)   # no table rows that never run


def test_a_record_before_can_be_in_is_the_parent_relation_the_app_builds():
    """The membership row's not_before: "a task can be in a project" stays a relation."""
    from harness.offline.spec.patterns import run_patterns
    from harness.offline.spec.rules import new_state, run_passes

    state = new_state("Tasks with a title. A task can be in a project.")
    run_passes(state, until="memberships")
    before = [(t.used, t.role) for t in state.toks]
    assert run_patterns(pass_patterns("memberships"), state.toks, state.p) == []
    assert [(t.used, t.role) for t in state.toks] == before


def test_a_bad_line_of_the_pass_table_is_an_error_naming_it(tmp_path):
    """passes.jsonl is the one ordered pass list: a line naming no function of the parser, or
    missing its reason, stops the load with the file and line."""
    from harness.offline.spec.rules import load_passes

    table = tmp_path / "passes.jsonl"
    good = '{"pass": "brands", "code": "entities.mark_brands", "reads": ["toks"], "why": "code: casing"}'
    table.write_text(good + '\n{"pass": "x", "code": "entities.no_such_pass", "reads": ["toks"], "why": "code: -"}\n')
    with pytest.raises(ValueError, match=r"passes.jsonl:2: not a pass \(AttributeError"):
        load_passes(table)
    table.write_text(good + '\n\n{"pass": "x", "table": true}\n')
    with pytest.raises(ValueError, match=r"passes.jsonl:3: not a pass \(KeyError: 'why'\)"):
        load_passes(table)
    table.write_text(good + "\n")
    assert [name for name, _run, _why in load_passes(table)] == ["brands"]


def test_a_code_pass_reads_the_parts_of_the_state_its_row_names():
    """ "reads": ["toks", "p.entities"] calls the function with those parts; "into" keeps its result."""
    from harness.offline.spec.rules import PASSES, new_state, run_passes

    state = new_state("An app to manage books. Each book has a title and an author.")
    run_passes(state, until="column lists, field bullets, filter fields")
    assert set(state.mentions.values()) == {"book"}       # "entities" kept its result in mentions
    assert [n for n, _r, _w in PASSES][:4] == ["app name called", "app name is a", "title line", "brands"]


def test_a_token_test_reads_the_place_of_the_token_and_an_unknown_one_is_an_error_naming_it():
    """ "is": "noun" holds for "topic" after "posts about a", not for "a"; "is": "mention" for the
    token that names a record; an unknown test name stops the pass with its name."""
    from harness.offline.spec.matcher import token_ok
    from harness.offline.spec.patterns import _sets_of
    from harness.offline.spec.rules import new_state, run_passes

    state = new_state("An app to manage posts about a topic.")
    run_passes(state, until="about fields")
    sets = _sets_of(state.p, state.toks, state.mentions)
    words = [t.w for t in state.toks]
    topic, a, posts = state.toks[words.index("topic")], state.toks[words.index("a")], state.toks[words.index("posts")]
    assert token_ok(topic, {"is": "noun"}, sets) and not token_ok(a, {"is": "noun"}, sets)
    assert token_ok(posts, {"is": "mention"}, sets) and not token_ok(topic, {"is": ["noun", "mention"]}, sets)
    with pytest.raises(KeyError, match="no token test named 'nonsense'"):
        token_ok(topic, {"is": "nonsense"}, sets)


def test_moving_a_record_into_the_record_it_belongs_to_is_no_collection_move():
    """unless_belongs: "add tasks to a project" when each task belongs to a project is the parent
    link the app builds; "move a book to a shelf" with no such link is reported ("add a book to a shelf"
is a many-to-many link since stranger trial 2026-12-08j F3)."""
    from harness.offline.spec.patterns import run_patterns
    from harness.offline.spec.rules import new_state, run_passes

    state = new_state("An app for projects and tasks. Each task belongs to a project. Add tasks to a project.")
    run_passes(state, until="collection moves")
    assert state.p.parents.get("task") == "project"
    assert run_patterns(pass_patterns("collection moves"), state.toks, state.p) == []
    shelf = new_state("An app for shelves and books. Move books to a shelf.")
    run_passes(shelf, until="collection moves")
    assert len(run_patterns(pass_patterns("collection moves"), shelf.toks, shelf.p)) == 1
    added = new_state("An app for shelves and books. Add books to a shelf.")   # a membership, built (trial j F3)
    run_passes(added, until="collection moves")
    assert ("book", "shelf") in added.p.links
    assert run_patterns(pass_patterns("collection moves"), added.toks, added.p) == []


def _state_before(pass_name: str, request: str):
    from harness.offline.spec.rules import new_state, run_passes

    state = new_state(request)
    run_passes(state, until=pass_name)
    return state


def test_a_workflow_action_gives_the_record_its_states_unless_it_has_a_workflow_or_status():
    row = {"name": "t", "pass": "t", "tokens": [{"w": "cancel"}],
           "action": {"record": {"reach": 8}, "workflow": ["active", "cancelled"], "mark": [{"role": "workflow:{record}", "force": True}]}}
    state = _state_before("cancel status", "An app to manage reservations. Users can add and cancel reservations.")
    state.p.workflows.pop("reservation", None)
    run_patterns([row], state.toks, state.p, state.mentions)
    assert state.p.workflows["reservation"] == ["active", "cancelled"]
    assert [t.role for t in state.toks if t.w == "cancel"] == ["workflow:reservation"]
    state = _state_before("cancel status", "An app to manage reservations. Users can add and cancel reservations.")
    state.p.workflows.pop("reservation", None)
    state.p.status.append("reservation")
    run_patterns([row], state.toks, state.p, state.mentions)
    assert "reservation" not in state.p.workflows


def test_unclaim_gives_the_words_back_when_the_row_finds_no_record():
    row = {"name": "t", "pass": "t", "tokens": [{"w": "cancel"}],
           "action": {"record": {"reach": 8}, "unclaim": True, "mark": [{"role": "workflow:{record}", "force": True}]}}
    state = _state_before("cancel status", "Books and films are listed. Later on, users can cancel.")
    cancel = next(t for t in state.toks if t.w == "cancel")
    assert cancel.used and state.p.entities == []   # no record to cancel
    run_patterns([row], state.toks, state.p, state.mentions)
    assert (cancel.used, cancel.role) == (False, "")
    kept = {**row, "action": {k: v for k, v in row["action"].items() if k != "unclaim"}}
    state = _state_before("cancel status", "Books and films are listed. Later on, users can cancel.")
    run_patterns([kept], state.toks, state.p, state.mentions)
    assert next(t for t in state.toks if t.w == "cancel").used


def test_record_status_or_the_records_workflow_and_the_first_record_of_a_set_when_none_is_near():
    row = {"name": "t", "pass": "t", "tokens": [{"w": "done"}],
           "action": {"record": {"reach": 2, "or_first_in": "STATUS_NOUNS"}, "record_status": True,
                      "mark": [{"role": "complete:{record}", "force": True}],
                      "with_workflow": {"record_status": False, "mark": [{"role": "workflow:{record}", "force": True}]}}}
    request = "An app for books and tasks. Books have a title and an author and a year. Users mark it done."
    state = _state_before("completion status", request)
    state.p.status.clear()
    run_patterns([row], state.toks, state.p, state.mentions)
    assert state.p.status == ["task"] and [t.role for t in state.toks if t.w == "done"] == ["complete:task"]
    state = _state_before("completion status", request)
    state.p.status.clear()
    state.p.workflows["task"] = ["open", "done"]
    run_patterns([row], state.toks, state.p, state.mentions)
    assert state.p.status == [] and [t.role for t in state.toks if t.w == "done"] == ["workflow:task"]
