"""The generator survives any entity/field/page name: reserved words, unicode, digits, quotes.

A hypothesis property compiles every generated module and exercises the generated SQL
(src/models.py only needs the standard library, so it runs in-process); a handful of nasty specs
run their whole generated suite in pytest, forked by a warm worker inside the sandbox as the harness
verifies a workspace (tests/warm_suites.py).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.offline.generator.analyse import analyse
from harness.offline.generator.samples import sample
from harness.offline.generator.naming import unique_idents
from harness.offline.generator.units import build_units, generate_files
from harness.models.spec import AppSpec, DataEntity, EntityField, Page, Requirement
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

TRICKY = [
    "class", "order", "group", "user", "from", "select", "table", "where", "id", "status",
    "owner", "owner id", "created at", "model_config", "copy", "json", "schema", "validate", "fields",
    "Ärger", "Đơn hàng", "日本語", "1st item", "2", "a-b", "  spaced  ", "!!!", "naïve café",
    "x" * 60, "Robert'); DROP TABLE students;--", 'quote"s', "back\\slash", "complete", "auth",
    "dashboard", "health", "api", "forms", "<script>", "tab\there",
]
TYPES = ["str", "text", "int", "float", "bool", "date", "datetime"]
ENTITY_CAPS = ["crud", "create", "list", "complete", "relation", "other"]

names = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20),
)


def make_spec(entity_defs: list[tuple], auth: bool, extras: tuple[str, ...] = ()) -> AppSpec:
    """entity_defs: (name, [(field name, type, required)], parent index or None, has_status, cap)."""
    idents = unique_idents([d[0] for d in entity_defs])
    entities, reqs, pages = [], [], []
    for i, (name, fields, parent, status, cap) in enumerate(entity_defs):
        field_idents = unique_idents([f[0] for f in fields])
        entities.append(DataEntity(
            name=name, plural=f"{name}s", ident=idents[i],
            fields=[EntityField(name=f[0], ident=fi, type=f[1], required=f[2])
                    for f, fi in zip(fields, field_idents)],
            parent=idents[parent] if parent is not None else None, has_status=status))
        reqs.append(Requirement(id=f"REQ-{i + 1:03d}", text=f"manage {name}", capability=cap,
                                entity=idents[i]))
        pages.append(Page(name=f"{name} page", route=f"/{name}", entity=idents[i]))
    for extra in ("health", *extras):
        reqs.append(Requirement(id=f"REQ-{len(reqs) + 1:03d}", text=f"the {extra}", capability=extra))
    return AppSpec(title="Names & <things>", auth=auth, data_model=entities, requirements=reqs,
                   pages=pages)


@st.composite
def specs(draw) -> AppSpec:
    count = draw(st.integers(1, 3))
    defs = []
    for i in range(count):
        fields = draw(st.lists(st.tuples(names, st.sampled_from(TYPES), st.booleans()),
                               min_size=1, max_size=4))
        parent = draw(st.one_of(st.none(), st.integers(0, i - 1))) if i else None
        defs.append((draw(names), fields, parent, draw(st.booleans()), draw(st.sampled_from(ENTITY_CAPS))))
    extras = tuple(x for x in ("dashboard", "pages") if draw(st.booleans()))
    return make_spec(defs, draw(st.booleans()), extras)


def exercise_models(spec: AppSpec, text: str, db: Path) -> None:
    """Run the generated data layer against a real SQLite file: every table, every operation."""
    namespace: dict = {"__name__": "generated_models"}
    exec(compile(text, "src/models.py", "exec", dont_inherit=True), namespace)
    namespace["db_path"] = lambda: str(db)
    namespace["init_db"]()
    namespace["init_db"]()
    app = analyse(spec)
    conn = namespace["connect"]()
    try:
        owner = None
        if app.auth:
            with conn:
                owner = conn.execute('INSERT INTO "users" ("username", "password_hash", "created_at") '
                                     "VALUES ('u', 'h', 'now')").lastrowid
        ids = {}
        for entity in app.entities:
            table = namespace["TABLES"][entity.ident]
            values = {c.ident: sample(c) for c in entity.columns}
            if entity.fk:
                values[entity.fk] = ids[entity.parent]
            row = table.insert(conn, values, owner)
            ids[entity.ident] = row["id"]
            assert table.get(conn, row["id"], owner) == row
            assert table.update(conn, row["id"], {}, owner) == row
            assert [r["id"] for r in table.rows(conn, owner)] == [row["id"]]
            assert table.count(conn, owner) == 1
            if entity.fk:
                assert table.children(conn, ids[entity.parent], owner)[0]["id"] == row["id"]
            if entity.has_status:
                assert table.set_status(conn, row["id"], "done", owner)["status"] == "done"
                assert table.status_counts(conn, owner) == {"open": 0, "done": 1}
        for entity in reversed(app.entities):
            assert namespace["TABLES"][entity.ident].delete(conn, ids[entity.ident], owner)
    finally:
        conn.close()


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_any_names_give_compilable_code_and_working_sql(spec):
    files = generate_files(spec)
    for path, text in files.items():
        if path.endswith(".py"):
            compile(text, path, "exec", dont_inherit=True)
    owned = [p for u in build_units(spec) if not u.key.startswith("unsupported:") for p in u.files]
    assert sorted(owned) == sorted(files) and len(owned) == len(set(owned))
    with tempfile.TemporaryDirectory() as tmp:
        exercise_models(spec, files["src/models.py"], Path(tmp) / "names.db")


NASTY = {
    "reserved_words": make_spec([
        ("class", [("from", "str", True), ("order", "int", False), ("group", "bool", False)], None, False, "crud"),
        ("user", [("select", "str", True), ("where", "date", False)], 0, True, "relation"),
    ], auth=True, extras=("dashboard", "pages")),
    "unicode": make_spec([
        ("Đơn hàng", [("Tên khách", "str", True), ("Giá", "float", True)], None, True, "complete"),
        ("日本語", [("説明", "text", False), ("naïve café", "datetime", False)], 0, False, "relation"),
    ], auth=False, extras=("pages",)),
    "digits_and_quotes": make_spec([
        ("1st item", [("3 colours", "str", True), ("Robert'); DROP TABLE x;--", "text", False),
                      ('quote"s', "str", False), ("back\\slash", "int", False)], None, False, "crud"),
    ], auth=True),
    "shadowing_names": make_spec([
        ("complete", [("model_config", "str", True), ("copy", "str", False), ("json", "int", False),
                      ("schema", "float", False), ("validate", "bool", False)], None, True, "crud"),
    ], auth=False, extras=("dashboard",)),
    "chain_without_columns": make_spec([
        ("a", [("name", "str", True)], None, False, "crud"),
        ("b", [("id", "int", False), ("created at", "str", False)], 0, True, "list"),
        ("c", [("b id", "int", True), ("title", "str", True)], 1, False, "relation"),
    ], auth=True, extras=("dashboard", "pages")),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(NASTY))
def test_nasty_names_generated_suite_passes(name, suites):
    root = suites.base / name
    for rel, text in generate_files(NASTY[name]).items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    result = suites.run(root, "-q", "-p", "no:cacheprovider", "-W", "error::DeprecationWarning")
    assert result.exit_code == 0, result.stdout[-4000:] + result.stderr[-2000:]


OWNERS = {  # a public pet-clinic request: "Owners have pets" (owner is also the rows' owner_id)
    "login": make_spec([("owner", [("name", "str", True)], None, False, "crud"),
                        ("pet", [("name", "str", True), ("species", "str", False)], 0, False, "relation")],
                       auth=True),
    "open": make_spec([("owner", [("name", "str", True)], None, False, "crud"),
                       ("pet", [("name", "str", True), ("species", "str", False)], 0, False, "relation")],
                      auth=False),
}


@pytest.mark.slow
@pytest.mark.parametrize("auth", sorted(OWNERS))
def test_an_entity_named_owner_gets_a_working_suite_bug(auth, suites):
    """Bug: "Owners have pets" made an entity `owner`, whose test helper `make_owner` replaced the
    suite's helper of the same name for the rows' owner (7 of 9 model tests failed with a
    TypeError: BUILD FAILED), and whose children's `owner_id` column is the rows' owner column
    once there is a login. `owner` is now a reserved identifier (the API keeps /api/owners)."""
    root = suites.base / f"owners_{auth}"
    files = generate_files(OWNERS[auth])
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    assert "'/api/owners'" in "".join(files.values())
    result = suites.run(root, "-q", "-p", "no:cacheprovider")
    assert result.exit_code == 0, result.stdout[-4000:] + result.stderr[-2000:]
