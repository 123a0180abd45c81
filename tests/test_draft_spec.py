"""#48: a draft app.toml for every request and run — `builder spec`, the round trip through
`builder new --spec`, and one clear line for bad input."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

from harness.offline.accounting.draft import built_shape, draft_toml
from harness.offline.accounting.run_draft import request_draft
from harness.errors import SpecError
from harness.fidelity import load_dataset
from harness.offline.spec import parse_request
from harness.offline.spec_file import load_spec_file

READING = ("books with title, author, number of pages and a rating from 1 to 5; reading sessions with a date "
           "and pages read for a book; a page that shows how many pages I read per month")


def builder(*args: str, cwd=None, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True,
                          timeout=240, cwd=cwd, env=env)


def test_the_draft_of_every_dev_set_request_rebuilds_the_same_spec(tmp_path):
    """The round trip over the whole dev set: the draft, read by the --spec reader, is the same
    app (entities, fields, kinds, values, bounds, links, features, auth, capabilities)."""
    checked = 0
    for item in load_dataset():
        try:
            spec = parse_request(item["request"])
        except SpecError:
            continue
        path = tmp_path / f"{item['id']}.toml"
        path.write_text(draft_toml(spec, spec.clauses, item["request"]), encoding="utf-8")
        assert built_shape(load_spec_file(path)) == built_shape(spec), item["id"]
        checked += 1
    assert checked >= 40


def test_every_clause_is_a_comment_and_unaccounted_words_are_named():
    text, spec, clauses, error = request_draft(READING)
    assert not error and len(clauses) == 3
    data = tomllib.loads(text)
    assert [e["name"] for e in data["entities"]] == ["book", "session"]
    for c in clauses:   # the sessions' period summary of pages read is built; their book is not linked
        assert f"# {c.id} ({'not_built' if c.id == 'C-002' else 'mapped'}): {c.text}" in text
    assert '# not understood: "book"' in text
    assert text.index("C-002") < text.index('name = "session"')   # above the entries that realise it


def test_a_request_with_nothing_to_build_still_has_a_draft_listing_its_clauses():
    text, spec, clauses, error = request_draft("hello. Make it fast and pretty.")
    assert spec is None and "no data entity" in error
    assert "# C-001 (context): hello" in text and "# C-002 (not_built): Make it fast and pretty" in text
    assert '# not understood: "fast", "pretty"' in text
    assert tomllib.loads(text) == {}


def test_builder_spec_writes_a_draft_that_parses_and_rebuilds(tmp_path):
    out = tmp_path / "app.toml"
    done = builder("spec", "Build me a task management web app with authentication, projects, tasks, and a dashboard",
                   "-o", str(out))
    assert done.returncode == 0, done.stderr
    data = tomllib.loads(out.read_text(encoding="utf-8"))
    assert data["auth"] is True and data["dashboard"] is True
    spec = parse_request("Build me a task management web app with authentication, projects, tasks, and a dashboard")
    assert built_shape(load_spec_file(out)) == built_shape(spec)
    printed = builder("spec", "Create a 2048 game")
    assert printed.returncode == 0 and '# not understood: "2048"' in printed.stdout
    assert tomllib.loads(printed.stdout)["entities"][0]["name"] == "game"


@pytest.mark.parametrize("args", [("spec", ""), ("spec", "   \n "), ("spec", "tasks\x07 with a title"),
                                  ("spec", "; ".join("tasks with a title" for _ in range(500))),
                                  ("new", "  "), ("new", "notes\x1b[2J")])
def test_bad_input_is_one_clear_line_and_exit_2(args, tmp_path):
    done = builder(*args, cwd=tmp_path)
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and done.stdout == ""
