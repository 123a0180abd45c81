"""Builds src/models.py (SQLite schema + data access) and tests/test_models.py.

Identifiers are quoted with sql_quote here, at generation time; the generated code only ever binds
values as parameters.
"""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.attachments import attachment_schema
from harness.offline.generator.links import link_schema, table_links
from harness.offline.generator.samples import body, sample
from harness.offline.generator.soft_delete_sql import soft_schema, soft_sql, trash_chunk
from harness.offline.generator.codegen import block, doc, fill, lit, marks, module, sql_lines
from harness.offline.generator.naming import sql_quote as q
from harness.offline.generator.naming import sql_text
from harness.offline.generator.skeleton_files import with_generated
from harness.offline.generator.templates_dir import template

def roles_schema(app: AppModel, schema: list[str]) -> list[str]:
    """With roles, the users table has a `role` (a new account's: the last role) and the first
    account ever registered gets the admin role (a trigger: the registration code stays as is)."""
    if not app.roles:
        return schema
    users = schema[0].replace('"created_at" TEXT NOT NULL)', '"created_at" TEXT NOT NULL, '
                              f'"role" TEXT NOT NULL DEFAULT {sql_text(app.roles[-1])} '
                              f'CHECK ("role" IN ({", ".join(sql_text(r) for r in app.roles)})))')
    trigger = ('CREATE TRIGGER IF NOT EXISTS "first_user_is_admin" AFTER INSERT ON "users" '
               'WHEN (SELECT COUNT(*) FROM "users") = 1 BEGIN '
               f'UPDATE "users" SET "role" = {sql_text(app.roles[0])} WHERE "id" = NEW."id"; END')
    return [users, *schema[1:], trigger]


_RULE_TABLE = template("models_py/rule_table.tmpl")

_AUTH_SCHEMA = [
    'CREATE TABLE IF NOT EXISTS "users" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, '
    '"username" TEXT NOT NULL UNIQUE, "password_hash" TEXT NOT NULL, "created_at" TEXT NOT NULL)',
    'CREATE TABLE IF NOT EXISTS "sessions" ("token_hash" TEXT PRIMARY KEY, '
    '"user_id" INTEGER NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE, '
    '"expires_at" TEXT NOT NULL)',
]


def rule_table(app: AppModel) -> str:
    """The RuleTable class; its `view` role (a role reading every row) only in an app that has one,
    so that every other app's models.py, and the mutants its audit picks there, stay as they were."""
    viewed = any(e.view for e in app.entities)
    return fill(_RULE_TABLE, view_doc=", the `view` role reads every row (and changes its own)" if viewed else "",
                view_field="view: str | None = None" if viewed else "",
                read_all="(self.shared or (role is not None and role == self.view))" if viewed else "self.shared")


def models_py(app: AppModel) -> str:
    """The text of src/models.py: the skeleton's data access, then this app's SCHEMA and TABLES."""
    schema = [*_AUTH_SCHEMA] if app.auth else []
    schema = roles_schema(app, schema)
    for entity in app.entities:
        schema += _schema(entity, app.auth) + soft_schema(app, entity)
    schema += link_schema(app) + attachment_schema(app)
    tables = "\n".join(_table(e, app.auth, app.access) for e in app.entities)
    rules = []
    if app.access:   # the admin role and the roles (src/people.py reads them too)
        rules += [f"ADMIN_ROLE: str | None = {lit(app.roles[0] if app.roles else None)}",
                  f"ROLES: tuple[str, ...] = {lit(app.roles)}", "", ""]
    if app.access or any(e.many or e.has("period_summary") for e in app.entities):
        rules += [rule_table(app).rstrip("\n"), "", ""]
    generated = "\n".join([*rules, "SCHEMA = (", block([lit(s) + "," for s in schema], 4), ")", "", "",
                           "TABLES: dict[str, Table] = {", tables, "}", *trash_chunk(app, _select_columns, scope_sql)])
    return with_generated("src/models.py", generated)


def _select_columns(e: Entity) -> list[str]:
    cols = ["id"] + ([e.fk] if e.fk else []) + [c.ident for c in e.columns] + (["assigned_to"] if e.assigned else [])
    return cols + (["status"] if e.has_status else []) + ["created_at"]


def _schema(e: Entity, auth: bool) -> list[str]:
    t = q(e.ident)
    cols = [f'{q("id")} INTEGER PRIMARY KEY AUTOINCREMENT']
    if auth:
        cols.append(f'{q("owner_id")} INTEGER NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE')
    if e.fk:
        on_delete = "CASCADE" if e.cascade else "RESTRICT"
        cols.append(f"{q(e.fk)} INTEGER NOT NULL REFERENCES {q(e.parent)} ({q('id')}) ON DELETE {on_delete}")
    for c in e.columns:
        col = f"{q(c.ident)} {c.entry.sql}" + (" NOT NULL" if c.required else "") + (
            " UNIQUE" if c.unique and not (auth and not e.shared) else "")
        if c.ref:
            col += f" REFERENCES {q(c.ref)} ({q('id')}) ON DELETE RESTRICT"
        cols.append(col)
    if e.assigned:
        cols.append(f'{q("assigned_to")} INTEGER REFERENCES "users" ("id") ON DELETE SET NULL')
    if e.has_status:
        states = ", ".join(sql_text(s) for s in e.states)
        cols.append(f"{q('status')} TEXT NOT NULL DEFAULT {sql_text(e.states[0])} "
                    f"CHECK ({q('status')} IN ({states}))")
    cols.append(f"{q('created_at')} TEXT NOT NULL")
    if e.soft_delete:   # when the record was deleted (NULL: not deleted); deleting only sets it
        cols.append(f"{q('deleted_at')} TEXT")
    if auth and not e.shared:  # unique per user: two accounts may both have a "Centre" court
        cols += [f"UNIQUE ({q('owner_id')}, {q(c.ident)})" for c in e.columns if c.unique]
    out = [f"CREATE TABLE IF NOT EXISTS {t} (" + ", ".join(cols) + ")"]
    for col in (["owner_id"] if auth else []) + ([e.fk] if e.fk else []) + [c.ident for c in e.refs] + (
            ["assigned_to"] if e.assigned else []):
        out.append(f"CREATE INDEX IF NOT EXISTS {q(f'ix_{e.ident}_{col}')} ON {t} ({q(col)})")
    return out


def scope_sql(e: Entity) -> str:
    """The access policy's row scope: everything (first parameter NULL), the owner's rows, and
    with assignment the rows assigned to the user."""
    assigned = f' OR {q("assigned_to")} = ?' if e.assigned else ""
    return f'(? IS NULL OR {q("owner_id")} = ?{assigned})'


def _table(e: Entity, auth: bool, access: bool = False) -> str:
    t = q(e.ident)
    scope = scope_sql(e) if access else f'{q("owner_id")} = ?'
    owner = f" AND {scope}" if auth else ""
    where_owner = f" WHERE {scope}" if auth else ""
    select = "SELECT " + ", ".join(q(c) for c in _select_columns(e)) + f" FROM {t}"
    columns = ([e.fk] if e.fk else []) + [c.ident for c in e.columns] + (["assigned_to"] if e.assigned else [])
    newest = e.newest_key
    order = f"{q(newest)} DESC, {q('id')} DESC" if newest and newest != "id" else \
        f"{q('id')} DESC" if newest else q("id")
    update_columns = columns + (["status"] if e.has_status else [])
    insert_cols = columns + ["created_at"] + (["owner_id"] if auth else [])
    sql = {
        "select_sql": select,
        "table_sql": t,
        "insert_sql": f"INSERT INTO {t} (" + ", ".join(q(c) for c in insert_cols) + ") VALUES ("
                      + ", ".join("?" for _ in insert_cols) + ")",
        "get_sql": f"{select} WHERE {q('id')} = ?{owner}",
        "list_sql": f"{select}{where_owner} ORDER BY {order} LIMIT ? OFFSET ?",
        "update_sql": f"UPDATE {t} SET " + ", ".join(f"{q(c)} = ?" for c in update_columns)
                      + f" WHERE {q('id')} = ?{owner}",
        "delete_sql": f"DELETE FROM {t} WHERE {q('id')} = ?{owner}",
        "count_sql": f"SELECT COUNT(*) FROM {t}{where_owner}",
    }
    if not update_columns:  # nothing writable: a no-op update keeps the SQL valid
        sql["update_sql"] = f"UPDATE {t} SET {q('id')} = {q('id')} WHERE {q('id')} = ?{owner}"
    if access:
        sql["allowed_sql"] = f"SELECT 1 FROM {t} WHERE {q('id')} = ?{owner}"
    if e.soft_delete:
        sql = soft_sql(e, sql, owner)
    if e.fk:
        sql["children_sql"] = f"{select} WHERE {q(e.fk)} = ?{owner} ORDER BY {order} LIMIT ? OFFSET ?"
    if e.has_status:
        sql["status_sql"] = f"UPDATE {t} SET {q('status')} = ? WHERE {q('id')} = ?{owner}"
        sql["status_count_sql"] = f"SELECT {q('status')}, COUNT(*) FROM {t}{where_owner} GROUP BY {q('status')}"
    kind = "RuleTable" if access or e.many or e.has("period_summary") else "Table"
    lines = [f"    {lit(e.ident)}: {kind}(", f"        name={lit(e.ident)},",
             f"        columns={lit(tuple(columns))},",
             f"        update_columns={lit(tuple(update_columns))},",
             f"        owned={auth},",
             f"        quoted={lit({c: q(c) for c in _select_columns(e)})},",
             f"        search_columns={lit(tuple(c.ident for c in e.columns if c.is_text))},",
             f"        states={lit(e.states if e.has_status else ())},"]
    lines += [table_links(e)] if e.many else []
    ranks = sort_ranks(e)
    lines += [f"        ranks={lit(ranks)},"] if ranks else []
    if access:
        lines += ["        policy=True,", f"        shared={e.shared},", f"        manage={lit(e.manage)},",
                  f"        assigned={e.assigned},"] + ([f"        view={lit(e.view)},"] if e.view else [])
    lines += [f"        {key}={sql_lines(value, 8)}," for key, value in sql.items()]
    return "\n".join(lines + ["    ),"])


def sort_ranks(e: Entity) -> dict[str, tuple[str, ...]]:
    """The choice columns a `sort` orders by their declared values (low, medium, high), not
    alphabetically: each enum column, and the status in its workflow's order."""
    if not e.has("sort"):
        return {}
    ranks = {c.ident: tuple(c.values) for c in e.columns if c.kind == "enum" and c.values}
    return {**ranks, **({"status": tuple(e.states)} if e.has_status else {})}


# ---- tests/test_models.py -----------------------------------------------------------------------

_TEST_HEADER = template("models_py/test_header.tmpl")

_MAKE_OWNER = '''    with conn:
        return conn.execute(
            'INSERT INTO "users" ("username", "password_hash", "created_at") VALUES (?, ?, ?)',
            (username, "not-a-real-hash", models.now()),
        ).lastrowid'''

_TEST_INIT = template("models_py/test_init.tmpl")


def test_models_py(app: AppModel, fallback: tuple[str, ...]) -> str:
    """The text of tests/test_models.py; tests are marked with the entity requirements."""
    make_owner = _MAKE_OWNER if app.auth else "    return None"
    chunks = [fill(_TEST_HEADER, make_owner=make_owner), _makers(app),
              fill(_TEST_INIT, marks_all=marks(app.entity_req_ids or fallback))]
    for e in app.entities:
        chunks += _entity_tests(e, fallback)
    private = [e for e in app.entities if not e.shared]
    if app.auth and private:
        chunks.append(_owner_test(private[-1], fallback))
    return module(*chunks)


def _makers(app: AppModel) -> str:
    out = []
    for e in app.entities:
        lines = [f"def make_{e.ident}(conn, owner):", f"    values = {lit(body(e, full=False))}"]
        if e.fk:
            lines.append(f"    values[{lit(e.fk)}] = make_{e.parent}(conn, owner)")
        lines += [f"    values[{lit(c.ident)}] = make_{c.ref}(conn, owner)" for c in e.refs if c.required]
        lines.append(f"    return TABLES[{lit(e.ident)}].insert(conn, values, owner)[\"id\"]")
        out.append("\n".join(lines))
    return "\n\n\n".join(out)


def _stored(e: Entity, variant: int = 0, limit: int | None = None) -> dict:
    """Column values as SQLite returns them (bools as 0/1); `limit` keeps the first n columns."""
    cols = e.plain[:limit] if limit is not None else e.plain
    values = {c.ident: sample(c, variant) for c in cols}
    return {k: int(v) if isinstance(v, bool) else v for k, v in values.items()}


def _entity_tests(e: Entity, fallback: tuple[str, ...]) -> list[str]:
    table = f"TABLES[{lit(e.ident)}]"
    fk_line = "\n".join(([f"values[{lit(e.fk)}] = make_{e.parent}(conn, owner)"] if e.fk else [])
                        + [f"values[{lit(c.ident)}] = make_{c.ref}(conn, owner)" for c in e.refs])
    out = [fill('''
        @@marks@@def test_@@ident@@_insert_get_list_update_delete(conn):
            owner = make_owner(conn)
            values = @@values@@
            @@fk_line@@
            row = @@table@@.insert(conn, values, owner)
            assert isinstance(row["id"], int)
            assert {key: row[key] for key in values} == values
            assert @@table@@.get(conn, row["id"], owner) == row
            assert [r["id"] for r in @@table@@.rows(conn, owner)] == [row["id"]]
            changed = @@table@@.update(conn, row["id"], @@change@@, owner)
            assert changed == {**row, **@@change@@}
            assert @@table@@.count(conn, owner) == 1
            assert @@table@@.delete(conn, row["id"], owner) is True
            assert @@table@@.get(conn, row["id"], owner) is None
            assert @@table@@.delete(conn, row["id"], owner) is False
            assert @@table@@.update(conn, row["id"], {}, owner) is None
        ''', marks=marks(e.req_ids("create", "list", "crud", "other") or fallback), ident=e.ident,
        values=lit(_stored(e)), fk_line=fk_line, table=table, change=lit(_stored(e, 1, 1)))]
    display = e.display
    if display and display.type in ("str", "text"):
        out.append(fill('''
            @@marks@@def test_@@ident@@_values_are_bound_not_spliced(conn):
                owner = make_owner(conn)
                row_id = make_@@ident@@(conn, owner)
                hostile = "x'); DROP TABLE \\"@@ident@@\\"; --"
                row = @@table@@.update(conn, row_id, {@@col@@: hostile}, owner)
                assert row[@@col@@] == hostile
                assert @@table@@.count(conn, owner) == 1
            ''', marks=marks(e.req_ids("create", "crud", "other") or fallback), ident=e.ident,
            table=table, col=lit(display.ident)))
    if e.fk:
        out.append(fill('''
            @@marks@@def test_@@ident@@_requires_an_existing_parent(conn):
                owner = make_owner(conn)
                values = {**@@values@@, @@fk@@: 999999}
                @@ref_lines@@
                with pytest.raises(sqlite3.IntegrityError):
                    @@table@@.insert(conn, values, owner)
                parent_id = make_@@parent@@(conn, owner)
                row = @@table@@.insert(conn, {**values, @@fk@@: parent_id}, owner)
                assert [r["id"] for r in @@table@@.children(conn, parent_id, owner)] == [row["id"]]
                @@on_delete@@
            ''', marks=marks(e.req_ids("relation") or fallback), ident=e.ident, values=lit(body(e, full=False)),
            fk=lit(e.fk), table=table, parent=e.parent, on_delete=_on_delete(e),
            ref_lines="\n".join(f"values[{lit(c.ident)}] = make_{c.ref}(conn, owner)"
                                for c in e.refs if c.required)))
    if e.has_status:
        out.append(fill('''
            @@marks@@def test_@@ident@@_status_starts_open_and_can_be_done(conn):
                owner = make_owner(conn)
                row_id = make_@@ident@@(conn, owner)
                assert @@table@@.get(conn, row_id, owner)["status"] == @@first@@
                assert @@table@@.set_status(conn, row_id, @@last@@, owner)["status"] == @@last@@
                assert @@table@@.status_counts(conn, owner) == @@counts@@
                with pytest.raises(sqlite3.IntegrityError):
                    @@table@@.set_status(conn, row_id, "not-a-state", owner)
            ''', marks=marks(e.req_ids("complete", "workflow") or fallback), ident=e.ident, table=table,
            first=lit(e.states[0]), last=lit(e.states[-1]),
            counts=lit({s: int(s == e.states[-1]) for s in e.states})))
    return out


def _on_delete(e: Entity) -> str:
    """Deleting the parent: refused while children exist (restrict) or removes them (cascade)."""
    parent, table = f"TABLES[{lit(e.parent)}]", f"TABLES[{lit(e.ident)}]"
    if e.cascade:
        return "\n".join([f"assert {parent}.delete(conn, parent_id, owner) is True",
                          f'assert {table}.get(conn, row["id"], owner) is None'])
    return "\n".join(["with pytest.raises(sqlite3.IntegrityError):",
                      f"    {parent}.delete(conn, parent_id, owner)",
                      f'assert {table}.get(conn, row["id"], owner) is not None',
                      f'assert {table}.delete(conn, row["id"], owner) is True',
                      f"assert {parent}.delete(conn, parent_id, owner) is True"])


def _owner_test(e: Entity, fallback: tuple[str, ...]) -> str:
    return fill('''
        @@marks@@def test_rows_are_scoped_to_their_owner(conn):
            alice, bob = make_owner(conn, "alice"), make_owner(conn, "bob")
            row_id = make_@@ident@@(conn, alice)
            assert TABLES[@@lit@@].get(conn, row_id, bob) is None
            assert TABLES[@@lit@@].rows(conn, bob) == []
            assert TABLES[@@lit@@].delete(conn, row_id, bob) is False
            assert TABLES[@@lit@@].get(conn, row_id, alice)["id"] == row_id
        ''', marks=marks(e.req_ids() or fallback), ident=e.ident, lit=lit(e.ident))
