"""Public read with accounts (`read = "public"`, docs/spec-language.md): "anyone can browse the
recipes without logging in; only signed-in users can post, and only the author can edit or delete
their own". Before, such a request ended BUILD FAILED naming "Anyone", "without logging in": with
`[auth]` on, every record was private to its creator or shared among accounts only.

The reader's one-line refusals, the requirement, the generated app (read routes take a visitor,
writes an account; the pages of public records answer a visitor; other apps' files unchanged), its
own tests run by real pytest, the black-box checks it gets, the request phrasings the parser reads
and the word accounting that credits "without logging in" only when the spec realises public read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.acceptance.derive import derive
from harness.offline.accounting.apply import apply_accounting
from harness.offline.generator import generate_files
from harness.offline.spec import parse_request
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import run_builder, write_files

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "public_recipes.toml"
ENTITY = '[[entities]]\nname = "recipe"\nfields = ["name"]\n'
# A JSON-only board: public categories the admin runs, public listings under them with every read feature.
BOARD = """
title = "Board"
html = false
[auth]
roles = ["admin", "member"]

[[entities]]
name = "category"
fields = [{ name = "name", required = true }]
read = "public"
manage = "admin"

[[entities]]
name = "listing"
parent = "category"
read = "public"
fields = [{ name = "title", required = true }, { name = "price", kind = "money" },
          { name = "condition", values = ["new", "used"] }, { name = "listed on", kind = "date" }]
features = ["search", "filter", "sort", "csv_export", "aggregate", "status_counts", { kind = "period_summary" }]
"""


def _load(tmp_path: Path, text: str):
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    return load_spec_file(path)


@pytest.mark.parametrize("head, key, message", [
    ("auth = true\n", 'read = "everyone"', 'entities[1].read: must be "public" (anyone reads the records without an account)'),
    ("auth = true\n", "read = true", "entities[1].read: must be a string"),
    ("", 'read = "public"', "entities[1].read: needs accounts: without auth = true every record is open to anyone"),
    ('[auth]\nroles = ["admin", "editor", "member"]\n', 'read = "public"\nview = "editor"',
     'entities[1].view: every visitor reads every recipe already (read = "public"); drop view'),
    ("auth = true\n", 'read = "public"\nfeatures = ["ownership"]',
     'entities[1].features: ownership (each user sees only their own recipes) contradicts read = "public"'),
])
def test_a_read_that_cannot_be_built_is_one_line(tmp_path, head, key, message):
    text = head + ENTITY + key + "\n"
    line = 1 + next(i for i, row in enumerate(text.split("\n")) if row.startswith(message.split(":")[0].split(".")[-1]))
    with pytest.raises(SpecFileError) as raised:
        _load(tmp_path, text)
    said = str(raised.value)
    assert message in said and "\n" not in said and said.startswith(f"{tmp_path / 'app.toml'}:{line}:"), said


def test_a_bad_read_exits_2_with_one_line(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text("auth = true\n" + ENTITY + 'read = "open"\n', encoding="utf-8")
    done = run_builder("new", "--spec", str(path), "--runs-dir", str(tmp_path / "runs"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [f'builder: {path}:5: entities[1].read: must be "public" (anyone '
                                                "reads the records without an account); leave it out for records "
                                                "private to their creator, or write shared = true for records every "
                                                "signed-in user sees"]


def test_public_read_beside_a_managing_role_and_shared_is_built(tmp_path):
    spec = _load(tmp_path, '[auth]\nroles = ["admin", "member"]\n' + ENTITY + 'read = "public"\nmanage = "admin"\nshared = true\n')
    texts = {r.acceptance: r.text for r in spec.requirements if r.capability == "access"}
    assert texts["recipe.read"].startswith("Anyone reads recipes without an account; only a signed-in user adds one")
    assert "recipe.shared" not in texts and texts["recipe.manage"] == "Only the admin role adds, changes and deletes recipes"


def test_the_example_generates_read_routes_for_a_visitor_and_writes_for_an_account():
    spec = load_spec_file(EXAMPLE)
    files = generate_files(spec)
    api = files["src/api_recipe.py"]
    assert "PublicReader = Annotated[dict[str, Any], Depends(_reader)]" in api
    assert "def list_items(db: Db,\n              user: PublicReader," in api
    assert "def read_item(item_id: RowId, db: Db, user: PublicReader)" in api
    for write in ("def create_item(body: RecipeCreate, db: Db, user: CurrentUser)",
                  "def update_item(item_id: RowId, body: RecipeUpdate, db: Db, user: CurrentUser)",
                  "def delete_item(item_id: RowId, db: Db, user: CurrentUser)"):
        assert write in api
    assert "        shared=True,\n" in files["src/models.py"]
    assert "def visitor_page(" in files["src/pages.py"] and "PUBLIC = {'recipe'}" in files["src/pages.py"]
    assert "def test_anyone_reads_recipe_records_and_only_the_author_changes_them(" in files["tests/test_api_recipe.py"]
    assert "for route in ['/recipes']:   # anyone reads these records" in files["tests/test_pages.py"]


def test_an_app_without_public_read_is_generated_as_before():
    files = generate_files(load_spec_file(ROOT / "examples" / "tool_library.toml"))
    assert not any("PublicReader" in text or "visitor_page" in text for text in files.values())
    assert "    for route in PAGE_ROUTES[1:]:\n" in files["tests/test_pages.py"]


def test_every_read_feature_of_a_public_entity_answers_a_visitor(tmp_path):
    api = generate_files(_load(tmp_path, BOARD))["src/api_listing.py"]
    for route in ("export_csv(db: Db, user: PublicReader)", "totals(db: Db, user: PublicReader)",
                  "counts(db: Db, user: PublicReader)", "summary(db: Db, user: PublicReader",
                  "list_for_parent(parent_id: RowId, db: Db, user: PublicReader,"):
        assert route in api, route


@pytest.mark.slow
@pytest.mark.parametrize("spec_text, suites", [
    (None, ["tests/test_api_recipe.py", "tests/test_pages.py", "tests/test_acceptance.py"]),
    (BOARD, ["tests/test_api_category.py", "tests/test_api_listing.py", "tests/test_acceptance.py"]),
])
def test_the_generated_apps_own_tests_pass(tmp_path, spec_text, suites):
    spec = load_spec_file(EXAMPLE) if spec_text is None else _load(tmp_path, spec_text)
    ws = write_files(generate_files(spec), tmp_path / "ws")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                           *suites], cwd=ws, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


def test_the_black_box_checks_read_as_a_visitor_instead_of_needing_a_token():
    spec = load_spec_file(EXAMPLE)
    names = [c.name for c in derive(spec)]
    assert "anyone reads a recipe; only its author changes it" in names
    assert "recipes need a token" not in names and "another account cannot see or change a recipe" not in names


@pytest.mark.parametrize("request_text", [
    "A recipe site with login. Anyone can browse the recipes without logging in. A recipe has a title.",
    "A blog with login. Anyone can read the posts without an account. A post has a title.",
    "A listings board with login. Visitors can see the listings. A listing has a title.",
    "Recipes with a name and login; the recipes are public.",
    "Recipes with a name and login; public recipes.",
])
def test_the_parser_reads_public_read_and_accounts_for_its_words(request_text):
    spec = parse_request(request_text)
    assert spec.auth and [(e.read, e.shared) for e in spec.data_model] == [("public", True)]
    asked = spec.clauses[1]
    assert asked.status == "mapped" and asked.unaccounted == [], asked


def test_without_logging_in_is_credited_only_when_the_spec_realises_public_read():
    spec = parse_request("A recipe site with login. Anyone can browse the recipes without logging in. "
                         "A recipe has a title.")
    assert spec.clauses[1].words["logging"] == "public read of recipes"
    spec.data_model[0].read = None   # the same clauses over recipes shared among accounts only
    again = apply_accounting(spec)
    assert again.clauses[1].status == "not_built"
    assert again.clauses[1].unaccounted == ["logging in"], again.clauses[1]
    spec.data_model[0].shared = False   # and over private recipes
    again = apply_accounting(spec)
    assert again.clauses[1].unaccounted == ["Anyone", "logging in"], again.clauses[1]


def test_shared_wording_without_visitors_stays_shared():
    spec = parse_request("A film club with login. Everyone can see the films. A film has a title.")
    assert [(e.shared, e.read) for e in spec.data_model] == [(True, None)]
