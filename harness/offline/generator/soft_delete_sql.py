"""Soft delete in src/models.py (`delete = "soft"` on an entity): the table's `deleted_at` column,
its SQL (every read sees only the rows not deleted; DELETE sets `deleted_at`), the trigger that
keeps a record other live records point to from being deleted (409, as a hard delete's foreign
key), and the TRASH table of SQL with deleted_rows()/restore(). Pure: app in, source text out."""

from __future__ import annotations

from collections.abc import Callable

from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import lit, sql_lines
from harness.offline.generator.naming import sql_quote as q

_LIVE = f'{q("deleted_at")} IS NULL'
_STAMP = "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')"   # as models.now(): UTC, seconds

_TRASH = '''

def deleted_rows(conn: sqlite3.Connection, name: str, owner_id: int | None = None, limit: int = 100,
                 offset: int = 0) -> list[dict[str, Any]]:
    """The rows of table `name` marked deleted that the viewer may restore (those it may delete),
    the last deleted first, each with its `deleted_at`."""
    params = (*TABLES[name]._scope(owner_id, "delete"), limit, offset)
    return [dict(row) for row in conn.execute(TRASH[name][0], params).fetchall()]


def restore(conn: sqlite3.Connection, name: str, row_id: int, owner_id: int | None = None) -> dict[str, Any] | None:
    """The row back in every list (its `deleted_at` cleared); None when it is not a deleted row the
    viewer may restore."""
    with conn:
        done = conn.execute(TRASH[name][1], (row_id, *TABLES[name]._scope(owner_id, "delete"))).rowcount > 0
    return TABLES[name].get(conn, row_id, owner_id) if done else None'''


def soft_entities(app: AppModel) -> list[Entity]:
    return [e for e in app.entities if e.soft_delete]


def live_table(e: Entity) -> str:
    """The rows not deleted, under the table's own name (every read goes through it)."""
    return f"(SELECT * FROM {q(e.ident)} WHERE {_LIVE}) AS {q(e.ident)}"


def soft_sql(e: Entity, sql: dict[str, str], owner: str) -> dict[str, str]:
    """The table's SQL with deleted rows left out of every read and write, and DELETE a mark."""
    t, live = q(e.ident), live_table(e)
    out = {key: value.replace(f" FROM {t}", f" FROM {live}", 1) for key, value in sql.items()}
    out["table_sql"] = live
    for key in ("update_sql", "status_sql"):
        if key in sql:
            out[key] = sql[key].replace(f" WHERE {q('id')} = ?", f" WHERE {q('id')} = ? AND {_LIVE}", 1)
    out["delete_sql"] = f"UPDATE {t} SET {q('deleted_at')} = {_STAMP} WHERE {q('id')} = ? AND {_LIVE}{owner}"
    return out


def _trash_sql(e: Entity, auth: bool, scope: str, columns: list[str]) -> tuple[str, str]:
    t = q(e.ident)
    owner = f" AND {scope}" if auth else ""
    cols = ", ".join(q(c) for c in columns + ["deleted_at"])
    listing = (f"SELECT {cols} FROM {t} WHERE {q('deleted_at')} IS NOT NULL{owner} "
               f"ORDER BY {q('deleted_at')} DESC, {q('id')} DESC LIMIT ? OFFSET ?")
    back = f"UPDATE {t} SET {q('deleted_at')} = NULL WHERE {q('id')} = ? AND {q('deleted_at')} IS NOT NULL{owner}"
    return listing, back


def trash_chunk(app: AppModel, columns_of: Callable[[Entity], list[str]],
                scope_of: Callable[[Entity], str]) -> list[str]:
    """The TRASH table (entity -> (its deleted rows' SQL, its restore SQL)) and the two functions,
    only in an app with soft delete (every other app's models.py stays as it was); `columns_of`:
    the columns a read returns, `scope_of`: the access policy's row scope."""
    entities = soft_entities(app)
    if not entities:
        return []
    lines = ["", "", "# entity -> (its deleted rows, the last deleted first; restore one)",
             "TRASH: dict[str, tuple[str, str]] = {"]
    for e in entities:
        listing, back = _trash_sql(e, app.auth, scope_of(e) if app.access else f'{q("owner_id")} = ?', columns_of(e))
        lines += [f"    {lit(e.ident)}: (", f"        {sql_lines(listing, 8)},", f"        {sql_lines(back, 8)},", "    ),"]
    return [*lines, "}", _TRASH]


def _referrers(app: AppModel, e: Entity) -> list[tuple[Entity, str]]:
    """(entity, column) of every column that points to a record of `e` (a child's parent key, a
    reference field)."""
    out = [(o, o.fk) for o in app.entities if o.parent == e.ident and o.fk]
    return out + [(o, c.ident) for o in app.entities for c in o.refs if c.ref == e.ident]


def soft_schema(app: AppModel, e: Entity) -> list[str]:
    """The trigger refusing to mark a record deleted while a record not deleted points to it (the
    foreign key a hard delete would meet: the API answers 409)."""
    if not e.soft_delete:
        return []
    tests = []
    for other, column in _referrers(app, e):
        alive = f" AND {_LIVE}" if other.soft_delete else ""
        tests.append(f"EXISTS (SELECT 1 FROM {q(other.ident)} WHERE {q(column)} = NEW.{q('id')}{alive})")
    if not tests:
        return []
    return [f"CREATE TRIGGER IF NOT EXISTS {q(f'{e.ident}_in_use')} BEFORE UPDATE OF {q('deleted_at')} ON "
            f"{q(e.ident)} WHEN NEW.{q('deleted_at')} IS NOT NULL AND ({' OR '.join(tests)}) BEGIN "
            "SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed'); END"]
