"""Public read (`read = "public"`): the black-box check "anyone reads a <entity>; only its author
changes it" (harness/acceptance/checks_public.py) passes the generated app and fails, each on its own
words, an app whose visitor read is broken (the list and record need a token again), an app whose
visitor page sends the visitor to /login, and an app where any account changes or deletes anyone's
record. Real uvicorn on a free port; the breaks are put into a generated workspace's files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import trial_breaks as breaks
from helpers import write_files
from served_app import served_app, spec_from_toml

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files

CHECK = "anyone reads a recipe; only its author changes it"
SPEC = """
title = "Recipes"
auth = true

[[entities]]
name = "recipe"
read = "public"
fields = [{ name = "name", required = true }, { name = "steps", kind = "long_text" }]
features = ["search"]

[[entities]]
name = "note"
fields = ["text"]
"""


def visitor_read_needs_a_token(ws: Path) -> None:
    """The reader dependency refuses a request without a token, as the private entities' does."""
    breaks.swap(ws / "src" / "api_recipe.py",
                '    return user if user is not None else {"id": 0, "username": "", "role": None}',
                '    if user is None:\n        raise HTTPException(401, "not authenticated")\n    return user')


def visitor_page_sends_to_login(ws: Path) -> None:
    breaks.swap(ws / "src" / "pages.py", "    if not keys or not set(keys) <= PUBLIC:\n        return None\n",
                "    return None\n")


def any_account_changes_any_record(ws: Path) -> None:
    """The 403 of `_may` dropped: an account that sees a record may change and delete it."""
    breaks.swap(ws / "src" / "api_recipe.py",
                '        raise HTTPException(403, f"you may not {action} this recipe")', "        pass")


@pytest.fixture(scope="module")
def recipes(tmp_path_factory):
    base = tmp_path_factory.mktemp("recipes")
    spec = spec_from_toml(base, SPEC)
    return spec, write_files(generate_files(spec), base / "generated")


def _check(spec, generated: Path, tmp_path: Path, brk=None):
    ws = shutil.copytree(generated, tmp_path / "ws")
    if brk is not None:
        brk(ws)
    with served_app(ws, tmp_path / "app.db") as app:
        got = run_acceptance(app.base, spec, [], [], only=lambda c: c.name == CHECK)
    assert [c.name for c in got] == [CHECK]
    return got[0]


@pytest.mark.slow
def test_the_generated_app_passes_the_public_read_check(recipes, tmp_path):
    spec, generated = recipes
    got = _check(spec, generated, tmp_path)
    assert got.ok, got
    assert "a visitor lists and reads recipe" in got.detail and "and sees it on /recipes" in got.detail


@pytest.mark.slow
def test_a_visitor_read_that_needs_a_token_fails_the_public_read_check_bug(recipes, tmp_path):
    spec, generated = recipes
    broken = _check(spec, generated, tmp_path, visitor_read_needs_a_token)
    assert not broken.ok and "a visitor without an account reads the recipe: expected 200, got" in broken.detail, broken


@pytest.mark.slow
def test_a_visitor_page_that_sends_to_login_fails_the_public_read_check_bug(recipes, tmp_path):
    spec, generated = recipes
    broken = _check(spec, generated, tmp_path, visitor_page_sends_to_login)
    assert not broken.ok and "a visitor's page /recipes does not show the recipe" in broken.detail, broken


@pytest.mark.slow
def test_any_account_changing_anyones_record_fails_the_public_read_check_bug(recipes, tmp_path):
    spec, generated = recipes
    broken = _check(spec, generated, tmp_path, any_account_changes_any_record)
    assert not broken.ok and "another account changes the recipe: expected 403/404, got" in broken.detail, broken
