"""Hostile trial g, A7: the page's "Done" form stored nothing while the API's complete route worked
(the app's own page test weakened) — every black-box check passed. The check "a page's complete
form completes a <entity>" (harness/acceptance/checks_page_forms.py) posts the form the page shows
for the owner's record, as a browser would, and reads the record back through the API; the same
for a delete form. Real uvicorn; the generated apps pass, each break fails exactly its check."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import trial_breaks as breaks
from helpers import write_files
from served_app import served_app, spec_from_toml

from harness.acceptance import run_acceptance
from harness.acceptance.checks_page_forms import record_form
from harness.models.spec import AppSpec
from harness.offline.generator import generate_files

ROOT = Path(__file__).resolve().parent.parent
COMPLETE = "a page's complete form completes a todo"
DELETE = "a page's delete form deletes a note"


def complete_form_stores_nothing(ws: Path) -> None:
    breaks.swap(ws / "src" / "pages.py", '    TABLES[key].set_status(db, item_id, "done", owner_id)\n', "")


def delete_form_deletes_nothing(ws: Path) -> None:
    breaks.swap(ws / "src" / "pages.py", "        call(SECTIONS[key].api.delete_item, item_id, db, user=user)\n", "        pass\n")


def _check(spec, generated: Path, tmp_path: Path, name: str, brk=None):
    ws = shutil.copytree(generated, tmp_path / "ws")
    if brk is not None:
        brk(ws)
    with served_app(ws, tmp_path / "app.db") as app:
        got = run_acceptance(app.base, spec, [], [], only=lambda c: c.name == name)
    assert [c.name for c in got] == [name]
    return got[0]


@pytest.fixture(scope="module")
def todo(tmp_path_factory):
    base = tmp_path_factory.mktemp("todo")
    spec = AppSpec.model_validate_json((ROOT / "examples" / "todo_spec.json").read_text())
    return spec, write_files(generate_files(spec), base / "generated")


@pytest.fixture(scope="module")
def notes(tmp_path_factory):
    base = tmp_path_factory.mktemp("notes")
    spec = spec_from_toml(base, breaks.NOTES_SPEC)
    return spec, write_files(generate_files(spec), base / "generated")


@pytest.mark.slow
def test_a_complete_form_that_stores_nothing_fails_the_page_form_check_bug(todo, tmp_path):
    spec, generated = todo
    assert _check(spec, generated, tmp_path / "ok", COMPLETE).ok
    broken = _check(spec, generated, tmp_path / "broken", COMPLETE, complete_form_stores_nothing)
    assert not broken.ok and "reads status 'open'" in broken.detail, broken


@pytest.mark.slow
def test_a_delete_form_that_deletes_nothing_fails_the_page_form_check_bug(notes, tmp_path):
    spec, generated = notes
    assert _check(spec, generated, tmp_path / "ok", DELETE).ok
    broken = _check(spec, generated, tmp_path / "broken", DELETE, delete_form_deletes_nothing)
    assert not broken.ok and "is still there" in broken.detail, broken


@pytest.mark.parametrize("html, found", [
    ('<form method="post" action="/forms/todos/7/complete"><input type="hidden" name="next" value="/"></form>',
     {"action": "/forms/todos/7/complete", "method": "post", "data": {"next": "/"}}),
    ('<FORM METHOD=POST ACTION="http://x/todos/7/complete/"></FORM>',
     {"action": "http://x/todos/7/complete/", "method": "post", "data": {}}),
    ('<form method="post" action="/forms/tools/7/complete"></form>', None),     # another entity's record 7
    ('<form action="/forms/todos/7/complete"></form>', None),             # a GET form is a link, not a post
    ('<form method="post" action="/forms/todos/17/complete"></form>', None),   # another record's form
    ('<form method="post" action="/forms/todos/7/delete"></form>', None),
])
def test_record_form_finds_the_records_post_form(html, found):
    assert record_form(html, "todos", 7, "complete") == found
