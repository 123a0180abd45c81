"""The skeleton files copied verbatim into every generated app: they parse, import nothing they
do not use, and the data-access code works against a real SQLite file."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from harness.offline.generator.skeleton_files import ROOT, skeleton, with_generated

FILES = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py"))


def _load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", FILES)
def test_skeleton_file_parses_and_uses_its_imports(path):
    tree = ast.parse(skeleton(path), filename=path)
    imported = {alias.asname or alias.name.split(".")[0]
                for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    exported = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__all__":
            exported = set(ast.literal_eval(node.value))
    assert imported - used - exported == set(), f"{path}: unused imports"


def test_with_generated_keeps_the_skeleton_above_the_marker():
    text = with_generated("src/models.py", "SCHEMA = ()\nTABLES = {}")
    head = skeleton("src/models.py").split("# ---- per-app")[0]
    assert text.startswith(head) and text.endswith("SCHEMA = ()\nTABLES = {}\n")


@pytest.fixture
def table(tmp_path, monkeypatch):
    models = _load("src/models.py", "skeleton_models")
    monkeypatch.setenv("APP_DB_PATH", str(tmp_path / "t.db"))
    cols = ("name", "kind", "amount", "start", "finish")
    quoted = {c: f'"{c}"' for c in ("id", *cols, "created_at")}
    select = "SELECT " + ", ".join(quoted.values()) + ' FROM "item"'
    table = models.Table(
        name="item", columns=cols, update_columns=cols, owned=False,
        insert_sql='INSERT INTO "item" ("name", "kind", "amount", "start", "finish", "created_at") '
                   "VALUES (?, ?, ?, ?, ?, ?)",
        get_sql=select + ' WHERE "id" = ?', list_sql=select + ' ORDER BY "id" LIMIT ? OFFSET ?',
        update_sql='UPDATE "item" SET "name" = ? WHERE "id" = ?', delete_sql='DELETE FROM "item" WHERE "id" = ?',
        count_sql='SELECT COUNT(*) FROM "item"', select_sql=select, table_sql='"item"', quoted=quoted,
        search_columns=("name",))
    conn = models.connect()
    conn.execute('CREATE TABLE "item" ("id" INTEGER PRIMARY KEY, "name" TEXT, "kind" TEXT, '
                 '"amount" REAL, "start" TEXT, "finish" TEXT, "created_at" TEXT)')
    for row in (("Zebra 100%", "in", 10.0, "09:00", "10:00"), ("lion", "out", 2.5, "10:00", "11:00"),
                ("ant_x", "in", 1.0, "12:00", "13:00")):
        table.insert(conn, dict(zip(cols, row)))
    yield table, conn
    conn.close()


def test_query_searches_filters_ranges_and_sorts(table):
    t, conn = table
    ids = lambda **kw: [r["id"] for r in t.query(conn, **kw)]
    assert ids(q="zebra") == [1]
    assert ids(q="%") == [1] and ids(q="_") == [3]        # LIKE wildcards are literal
    assert ids(equals={"kind": "in"}) == [1, 3]
    assert ids(ranges={"amount": (2.0, None)}) == [1, 2]
    assert ids(ranges={"amount": (None, 2.5)}) == [2, 3]
    assert ids(sort="amount", order="desc") == [1, 2, 3]
    assert ids(sort="amount") == [3, 2, 1]
    with pytest.raises(KeyError):
        t.query(conn, sort='name"; DROP TABLE item; --')


def test_totals_and_groups(table):
    t, conn = table
    totals = t.totals(conn, None, ("amount",), "kind")
    assert totals["count"] == 3 and totals["sums"] == {"amount": 13.5}
    assert totals["groups"] == {"in": {"count": 2, "sums": {"amount": 11.0}},
                                "out": {"count": 1, "sums": {"amount": 2.5}}}


def test_overlapping_ranges_are_half_open(table):
    t, conn = table
    assert t.overlapping(conn, {}, "start", "finish", ("09:30", "09:45"), None) is True
    assert t.overlapping(conn, {}, "start", "finish", ("11:00", "12:00"), None) is False
    assert t.overlapping(conn, {}, "start", "finish", ("09:00", "10:00"), 1) is False
    assert t.overlapping(conn, {"kind": "out"}, "start", "finish", ("09:30", "09:45"), None) is False
    assert t.overlapping(conn, {}, "start", "start", ("12:00", "12:00"), None) is True


def test_fieldtypes_helpers():
    ft = _load("src/fieldtypes.py", "skeleton_fieldtypes2")
    assert ft.csv_cell("=1+1") == "'=1+1" and ft.csv_cell(-5) == "-5" and ft.csv_cell(None) == ""
    assert set(ft.error_responses(True)) == {401, 404, 409, 422}
    assert 401 not in ft.error_responses(False)
    import datetime
    assert ft.iso(datetime.date(2024, 1, 2)) == "2024-01-02" and ft.iso(3) == 3


def test_an_enum_value_in_any_letter_case_is_that_value():
    """Pennywise: "a category (Food, Transport, …)" made the values food, transport, … and the
    API refused the user's own spelling "Food" (422)."""
    from typing import Annotated, Literal

    from pydantic import TypeAdapter, ValidationError

    ft = _load("src/fieldtypes.py", "skeleton_fieldtypes3")
    choice = TypeAdapter(Annotated[Literal["food", "fun"], ft.any_case("food", "fun")])
    assert [choice.validate_python(v) for v in ("Food", "FUN", "food")] == ["food", "fun", "food"]
    for bad in ("Rent", 3, None):
        with pytest.raises(ValidationError):
            choice.validate_python(bad)
    # values a spec file lists capitalised keep that spelling (it lowered "General" and refused it)
    written = TypeAdapter(Annotated[Literal["General", "Medical"], ft.any_case("General", "Medical")])
    assert [written.validate_python(v) for v in ("General", "general", "MEDICAL")] == ["General", "General", "Medical"]


@pytest.mark.slow
def test_ui_labels_cover_the_same_words_in_every_language():
    ui = _load("src/ui.py", "skeleton_ui")
    assert set(ui.LABELS["vi"]) == set(ui.LABELS["en"])
    page = ui.layout("T<", "<p>x</p>", app_title="A", nav=(("/", "Trang chủ"),), lang="vi")
    assert b'lang="vi"' in page.body and b"T&lt;" in page.body and b"/style.css" in page.body


def test_every_template_file_is_used_and_fill_is_strict():
    from harness.offline.generator import codegen
    from harness.offline.generator.templates_dir import ROOT as TEMPLATES

    sources = "\n".join(p.read_text() for p in TEMPLATES.parent.glob("*.py"))
    for path in TEMPLATES.rglob("*.tmpl"):
        rel = path.relative_to(TEMPLATES).as_posix()
        assert f'template("{rel}")' in sources, f"{rel} is not used by any generator module"
    with pytest.raises(KeyError):
        codegen.fill("x = @@missing@@\n", present=1)
