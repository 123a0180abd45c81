"""Hostile trial i, A6: a generated app whose page cells return `str(value)` (stored cross-site
scripting) with its own escaping test hollowed passed both legs — no black-box check looked at
escaping. Now `pages show a <entity>'s text as text, not markup` (checks_page_escaping.py) creates a
record whose text holds `<b id=…>` and `<script>` markup through the API and reads the pages that
show it: the generated app passes it, the break fails it, each on a real uvicorn."""

from __future__ import annotations

import shutil
from html import escape
from pathlib import Path

import pytest
from helpers import write_files
from served_app import served_app, spec_from_toml
from trial_breaks import swap

from harness.acceptance import run_acceptance
from harness.acceptance.checks_page_escaping import read_page
from harness.acceptance.derive import derive
from harness.models.spec import AppSpec
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file

ROOT = Path(__file__).resolve().parent.parent
TASKS = """
title = "Tasks"

[[entities]]
name = "task"
fields = [{ name = "title", required = true }, { name = "details", kind = "long_text" }]
"""


def cells_unescaped(ws: Path) -> None:
    """A6: the page cell shows the stored value as it was typed, and the test that looked is hollowed."""
    swap(ws / "src" / "page_parts.py", "    return escape(str(value))\n\n\ndef _computed_cell",
         "    return str(value)  # rich text allowed\n\n\ndef _computed_cell")
    tests = ws / "tests" / "test_pages.py"
    text = tests.read_text(encoding="utf-8")
    hollowed = text.replace('assert "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;" in page.text', "assert page.status_code == 200")
    tests.write_text(hollowed.replace('assert "<b>Tom" not in page.text', "assert page.text"), encoding="utf-8")


def edit_value_quotes_unescaped(ws: Path) -> None:
    """The edit form puts the value in its `value="…"` attribute with < > & escaped but not quotes:
    a value with a quote in it writes attributes of its own into the page."""
    swap(ws / "src" / "page_parts.py", "shown = f' value=\"{escape(str(value))}\"'",
         "shown = f' value=\"{escape(str(value), quote=False)}\"'")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """{name: (spec, generated workspace)}: the Todo (its page under no `pages` requirement) and a
    tasks app (a `pages` requirement)."""
    base = tmp_path_factory.mktemp("xss")
    todo = AppSpec.model_validate_json((ROOT / "examples" / "todo_spec.json").read_text(encoding="utf-8"))
    tasks = spec_from_toml(base, TASKS)
    return {name: (spec, write_files(generate_files(spec), base / name))
            for name, spec in (("todo", todo), ("tasks", tasks))}


def _escaping_check(spec: AppSpec, entity: str):
    return next(c for c in derive(spec) if c.name == f"pages show a {entity}'s text as text, not markup")


def _run(generated, tmp_path: Path, app: str, brk=None, every: bool = False) -> list:
    spec, ws = generated[app]
    ws = shutil.copytree(ws, tmp_path / "ws")
    if brk is not None:
        brk(ws)
    entity = spec.data_model[0].name
    with served_app(ws, tmp_path / "app.db") as served:
        return run_acceptance(served.base, spec, [], [],
                              only=None if every else lambda c: c.name == _escaping_check(spec, entity).name)


@pytest.mark.parametrize("app, requirement", [("todo", "REQ-002"), ("tasks", "pages")])
def test_page_cells_that_do_not_escape_fail_the_escaping_check_bug(generated, tmp_path, app, requirement):
    spec = generated[app][0]
    [check] = _run(generated, tmp_path, app, cells_unescaped)
    owner = spec.requirement(check.requirement)
    assert not check.ok and (owner.id if requirement.startswith("REQ") else owner.capability) == requirement, check
    assert "into markup" in check.detail and "element" in check.detail, check.detail


def test_an_edit_form_that_leaves_quotes_unescaped_fails_the_escaping_check_bug(generated, tmp_path):
    [check] = _run(generated, tmp_path, "tasks", edit_value_quotes_unescaped)
    assert not check.ok and "/forms/tasks/" in check.detail and "attribute" in check.detail, check.detail


@pytest.mark.parametrize("app", ["todo", "tasks"])
def test_the_generated_app_passes_every_check_with_the_escaping_check(generated, tmp_path, app):
    checks = _run(generated, tmp_path, app, every=True)
    assert [(c.name, c.detail) for c in checks if not c.ok] == []
    escaping = [c for c in checks if c.name.endswith("text as text, not markup")]
    assert len(escaping) == 1 and "shown as text on /" in escaping[0].detail, escaping


def test_each_entity_with_a_page_and_text_gets_the_check_under_the_pages_requirement():
    spec = load_spec_file(ROOT / "examples" / "club_bookings.toml")
    pages = next(r.id for r in spec.requirements if r.capability == "pages")
    found = {c.entity: c.requirement for c in derive(spec) if c.name.endswith("text as text, not markup")}
    with_text = {e.ident for e in spec.data_model
                 if any(f.kind in ("short_text", "long_text") for f in e.fields)
                 and any(p.entity == e.ident for p in spec.pages)}
    assert with_text and found == {ident: pages for ident in with_text}


def test_a_page_is_read_as_a_browser_reads_it_and_its_own_markup_is_not_the_value():
    marker = "hollow-lantern"
    value = f'<b id="{marker}">Quiet harbour</b><script>document.title="{marker}"</script>'
    chrome = ('<form><input type="hidden" name="next" value="/"><script>window.hollow = 1</script>'
              '<button class="lantern">x</button></form>')
    safe = read_page(f"<td>{escape(value)}</td>{chrome}", marker, value)
    assert safe.shown and safe.raw == []
    in_attribute = read_page(f'<input name="title" value="{escape(value)}">{chrome}', marker, value)
    assert in_attribute.shown and in_attribute.raw == []
    raw = read_page(f"<td>{value}</td>{chrome}", marker, value)
    assert not raw.shown and len(raw.raw) == 2, raw.raw
    quotes_left = read_page(f'<input name="title" value="{escape(value, quote=False)}">', marker, value)
    assert not quotes_left.shown and "attribute" in quotes_left.raw[0], quotes_left.raw
