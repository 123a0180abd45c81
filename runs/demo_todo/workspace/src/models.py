"""SQLite schema and data access for Simple Todo App.

The database file is the environment variable APP_DB_PATH (default "app.db" in the working
directory). init_db() creates every table idempotently. Each Table holds pre-quoted SQL text;
values are always bound as parameters, never spliced into SQL.
"""

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

SCHEMA = (
    'CREATE TABLE IF NOT EXISTS "todo" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "status" TEXT NOT NULL DEFAULT \'open\' CHECK ("status" IN (\'open\', \'done\')), "created_at" TEXT NOT NULL)',
)


def db_path() -> str:
    return os.environ.get("APP_DB_PATH", "app.db")


def now() -> str:
    """The current UTC time as ISO-8601 text (seconds precision)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def connect() -> sqlite3.Connection:
    """A connection with foreign keys enforced and rows readable by column name."""
    # FastAPI may run a dependency's setup and teardown on different worker threads.
    conn = sqlite3.connect(db_path(), check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def init_db() -> None:
    """Create every table and index that does not exist yet."""
    with closing(connect()) as conn, conn:
        for statement in SCHEMA:
            conn.execute(statement)


def get_db() -> Iterator[sqlite3.Connection]:
    """FastAPI dependency: one connection per request, always closed."""
    conn = connect()
    try:
        yield conn
    finally:
        conn.close()


@dataclass(frozen=True)
class Table:
    """One entity table. `columns` are the writable columns in insert order; rows are scoped to
    `owner_id` when `owned`."""

    name: str
    columns: tuple[str, ...]
    update_columns: tuple[str, ...]
    owned: bool
    insert_sql: str
    get_sql: str
    list_sql: str
    update_sql: str
    delete_sql: str
    count_sql: str
    children_sql: str = ""
    status_sql: str = ""
    status_count_sql: str = ""

    def _scope(self, owner_id: int | None) -> tuple[Any, ...]:
        return (owner_id,) if self.owned else ()

    def insert(self, conn: sqlite3.Connection, values: dict[str, Any],
               owner_id: int | None = None) -> dict[str, Any]:
        params = (*(values.get(c) for c in self.columns), now(), *self._scope(owner_id))
        with conn:
            row_id = conn.execute(self.insert_sql, params).lastrowid
        return self.get(conn, row_id, owner_id) or {}

    def get(self, conn: sqlite3.Connection, row_id: int, owner_id: int | None = None) -> dict[str, Any] | None:
        row = conn.execute(self.get_sql, (row_id, *self._scope(owner_id))).fetchone()
        return dict(row) if row else None

    def rows(self, conn: sqlite3.Connection, owner_id: int | None = None, limit: int = 100,
             offset: int = 0) -> list[dict[str, Any]]:
        rows = conn.execute(self.list_sql, (*self._scope(owner_id), limit, offset)).fetchall()
        return [dict(row) for row in rows]

    def children(self, conn: sqlite3.Connection, parent_id: int, owner_id: int | None = None,
                 limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        params = (parent_id, *self._scope(owner_id), limit, offset)
        return [dict(row) for row in conn.execute(self.children_sql, params).fetchall()]

    def update(self, conn: sqlite3.Connection, row_id: int, values: dict[str, Any],
               owner_id: int | None = None) -> dict[str, Any] | None:
        """Partial update: merge `values` into the stored row; None when the row is not found."""
        current = self.get(conn, row_id, owner_id)
        if current is None:
            return None
        merged = {**current, **values}
        params = (*(merged[c] for c in self.update_columns), row_id, *self._scope(owner_id))
        with conn:
            conn.execute(self.update_sql, params)
        return self.get(conn, row_id, owner_id)

    def delete(self, conn: sqlite3.Connection, row_id: int, owner_id: int | None = None) -> bool:
        with conn:
            return conn.execute(self.delete_sql, (row_id, *self._scope(owner_id))).rowcount > 0

    def set_status(self, conn: sqlite3.Connection, row_id: int, status: str,
                   owner_id: int | None = None) -> dict[str, Any] | None:
        with conn:
            conn.execute(self.status_sql, (status, row_id, *self._scope(owner_id)))
        return self.get(conn, row_id, owner_id)

    def count(self, conn: sqlite3.Connection, owner_id: int | None = None) -> int:
        return conn.execute(self.count_sql, self._scope(owner_id)).fetchone()[0]

    def status_counts(self, conn: sqlite3.Connection, owner_id: int | None = None) -> dict[str, int]:
        counts = {"open": 0, "done": 0}
        for status, n in conn.execute(self.status_count_sql, self._scope(owner_id)).fetchall():
            counts[status] = n
        return counts


TABLES: dict[str, Table] = {
    'todo': Table(
        name='todo',
        columns=('title',),
        update_columns=('title', 'status'),
        owned=False,
        insert_sql=(
            'INSERT INTO "todo" ("title", "created_at")'
            ' VALUES (?, ?)'
        ),
        get_sql=(
            'SELECT "id", "title", "status", "created_at"'
            ' FROM "todo"'
            ' WHERE "id" = ?'
        ),
        list_sql=(
            'SELECT "id", "title", "status", "created_at"'
            ' FROM "todo"'
            ' ORDER BY "id"'
            ' LIMIT ? OFFSET ?'
        ),
        update_sql=(
            'UPDATE "todo"'
            ' SET "title" = ?, "status" = ?'
            ' WHERE "id" = ?'
        ),
        delete_sql=(
            'DELETE'
            ' FROM "todo"'
            ' WHERE "id" = ?'
        ),
        count_sql=(
            'SELECT COUNT(*)'
            ' FROM "todo"'
        ),
        status_sql=(
            'UPDATE "todo"'
            ' SET "status" = ?'
            ' WHERE "id" = ?'
        ),
        status_count_sql=(
            'SELECT "status", COUNT(*)'
            ' FROM "todo"'
            ' GROUP BY "status"'
        ),
    ),
}
