"""SQLite schema and data access.

The database file is the environment variable APP_DB_PATH (default "app.db" in the working
directory). init_db() creates every table idempotently. Each Table holds pre-quoted SQL text and
the pre-quoted names of its columns; values are always bound as parameters, never spliced into
SQL. (This file is copied from the generator's skeleton; SCHEMA and TABLES below are per app.)
"""

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any


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
    """Create the missing tables and indexes in one transaction (all or none)."""
    # sqlite3 opens no transaction before DDL, so without BEGIN every CREATE would commit (and
    # sync the journal) on its own, and a failing statement would leave the earlier tables behind.
    with closing(connect()) as conn, conn:
        conn.execute("BEGIN")
        for statement in SCHEMA:
            conn.execute(statement)


def get_db() -> Iterator[sqlite3.Connection]:
    """FastAPI dependency: one connection per request, always closed."""
    conn = connect()
    try:
        yield conn
    finally:
        conn.close()


def _like(text: str) -> str:
    """A LIKE pattern: `text` anywhere, its wildcards taken literally."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


@dataclass(frozen=True)
class Table:
    """One entity table. `columns` are the writable columns in insert order; rows are scoped to
    `owner_id` when `owned`; `quoted` maps every readable column to its quoted SQL name."""

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
    select_sql: str = ""             # "SELECT <every column> FROM <table>"
    table_sql: str = ""              # the quoted table name
    quoted: dict[str, str] = field(default_factory=dict)
    search_columns: tuple[str, ...] = ()
    states: tuple[str, ...] = ()
    children_sql: str = ""
    status_sql: str = ""
    status_count_sql: str = ""
    ranks: dict[str, tuple[str, ...]] = field(default_factory=dict)   # a choice column's values, in order

    def _scope(self, owner_id: int | None, action: str = "read") -> tuple[Any, ...]:
        return (owner_id,) if self.owned else ()

    def insert(self, conn: sqlite3.Connection, values: dict[str, Any],
               owner_id: int | None = None) -> dict[str, Any]:
        owner = (int(owner_id),) if self.owned else ()  # type: ignore[arg-type]
        params = (*(values.get(c) for c in self.columns), now(), *owner)
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

    def _where(self, owner_id: int | None, q: str | None, equals: dict[str, Any],
               ranges: dict[str, tuple[Any, Any]]) -> tuple[str, list[Any]]:
        """WHERE text over known columns only (unknown names raise KeyError) and its parameters."""
        parts, params = (['"owner_id" = ?'], [owner_id]) if self.owned else ([], [])
        if q and self.search_columns:
            parts.append("(" + " OR ".join(f"{self.quoted[c]} LIKE ? ESCAPE '\\'"
                                           for c in self.search_columns) + ")")
            params += [_like(q)] * len(self.search_columns)
        for column, value in equals.items():
            parts.append(f"{self.quoted[column]} = ?")
            params.append(value)
        for column, (low, high) in ranges.items():
            if low is not None:
                parts.append(f"{self.quoted[column]} >= ?")
                params.append(low)
            if high is not None:
                parts.append(f"{self.quoted[column]} <= ?")
                params.append(high)
        return (" WHERE " + " AND ".join(parts) if parts else ""), params

    def query(self, conn: sqlite3.Connection, owner_id: int | None = None, *, q: str | None = None,
              equals: dict[str, Any] | None = None, ranges: dict[str, tuple[Any, Any]] | None = None,
              sort: str = "id", order: str = "asc", limit: int = 100,
              offset: int = 0) -> list[dict[str, Any]]:
        """Rows matching the search text, the equality filters and the (low, high) ranges,
        ordered by `sort` (a known column) then id."""
        where, params = self._where(owner_id, q, equals or {}, ranges or {})
        direction = "DESC" if order == "desc" else "ASC"
        key, ranked = self._sort_key(sort)
        sql = (f"{self.select_sql}{where} ORDER BY {key} {direction}, "
               f'"id" {direction} LIMIT ? OFFSET ?')
        return [dict(row) for row in conn.execute(sql, (*params, *ranked, limit, offset)).fetchall()]

    def _sort_key(self, sort: str) -> tuple[str, tuple[str, ...]]:
        """The ORDER BY term of `sort` and its parameters: a choice column (an enum, the status)
        by the place of its value in the declared order (low, medium, high), a value outside it
        or none first; any other column by its value."""
        values = self.ranks.get(sort, ())
        if not values:
            return self.quoted[sort], ()
        places = " ".join(f"WHEN ? THEN {place}" for place in range(len(values)))
        return f"CASE {self.quoted[sort]} {places} ELSE -1 END", values

    def totals(self, conn: sqlite3.Connection, owner_id: int | None, columns: tuple[str, ...],
               group_by: str | None = None) -> dict[str, Any]:
        """Sums of `columns` over the owner's rows, also per value of `group_by` when given."""
        where, params = self._where(owner_id, None, {}, {})
        sums = "".join(f", COALESCE(SUM({self.quoted[c]}), 0)" for c in columns)
        table = f" FROM {self.table_sql}"
        sql = f"SELECT COUNT(*){sums}{table}{where}"  # identifiers from `quoted` only
        row = conn.execute(sql, params).fetchone()
        out: dict[str, Any] = {"count": row[0], "sums": dict(zip(columns, row[1:]))}
        if group_by:
            key = self.quoted[group_by]
            sql = f"SELECT {key}, COUNT(*){sums}{table}{where} GROUP BY {key} ORDER BY {key}"
            grouped = conn.execute(sql, params).fetchall()

            out["groups"] = {str(g[0]): {"count": g[1], "sums": dict(zip(columns, g[2:]))}
                             for g in grouped}
        return out

    def overlapping(self, conn: sqlite3.Connection, same: dict[str, Any], start: str, end: str,
                    span: tuple[Any, Any], exclude_id: int | None, states: tuple[str, ...] = ()) -> bool:
        """True when another row of any user with the same `same` values (the booked resource,
        the day) has a [start, end) range that overlaps `span`; a row without an end is the
        single slot `start`. Every owner's rows count: a room is booked whoever booked it. With
        `states`, only rows in one of them hold their slot (a cancelled booking frees it)."""
        parts = [f"{self.quoted[column]} = ?" for column in same]
        params: list[Any] = [*same.values()]
        if states:
            parts.append(f'"status" IN ({", ".join("?" for _ in states)})')
            params += states
        parts.append('"id" IS NOT ?')
        low, high = span
        head = f"SELECT 1 FROM {self.table_sql} WHERE {' AND '.join(parts)}"
        if start == end:  # a single slot: the same start is the clash
            sql = f"{head} AND {self.quoted[start]} = ? LIMIT 1"
            return conn.execute(sql, (*params, exclude_id, low)).fetchone() is not None
        sql = (f"{head} AND {self.quoted[start]} < ? AND "
               f"COALESCE({self.quoted[end]}, {self.quoted[start]}) > ? LIMIT 1")
        return conn.execute(sql, (*params, exclude_id, high, low)).fetchone() is not None

    def taken(self, conn: sqlite3.Connection, same: dict[str, Any], states: tuple[str, ...],
              exclude_id: int | None) -> int:
        """How many rows of every user, other than `exclude_id`, share the `same` values (and
        have one of `states`, when given): the places of a capacity already taken."""
        parts = [f"{self.quoted[column]} = ?" for column in same] + ['"id" IS NOT ?']
        params: list[Any] = [*same.values(), exclude_id]
        if states:
            parts.append(f'"status" IN ({", ".join("?" for _ in states)})')
            params += states
        sql = f"SELECT COUNT(*) FROM {self.table_sql} WHERE {' AND '.join(parts)}"
        return conn.execute(sql, params).fetchone()[0]

    def value(self, conn: sqlite3.Connection, row_id: int, column: str) -> Any:
        """One column of a row, whoever owns it (a resource's capacity); None without the row."""
        sql = f'SELECT {self.quoted[column]} FROM {self.table_sql} WHERE "id" = ?'
        row = conn.execute(sql, (row_id,)).fetchone()
        return row[0] if row else None

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
        params = (*(merged[c] for c in self.update_columns), row_id, *self._scope(owner_id, "update"))
        with conn:
            conn.execute(self.update_sql, params)
        return self.get(conn, row_id, owner_id)

    def delete(self, conn: sqlite3.Connection, row_id: int, owner_id: int | None = None) -> bool:
        """True when a row was deleted; sqlite3.IntegrityError when other rows still refer to it."""
        with conn:
            return conn.execute(self.delete_sql, (row_id, *self._scope(owner_id, "delete"))).rowcount > 0

    def set_status(self, conn: sqlite3.Connection, row_id: int, status: str,
                   owner_id: int | None = None) -> dict[str, Any] | None:
        with conn:
            conn.execute(self.status_sql, (status, row_id, *self._scope(owner_id, "update")))
        return self.get(conn, row_id, owner_id)

    def count(self, conn: sqlite3.Connection, owner_id: int | None = None) -> int:
        return conn.execute(self.count_sql, self._scope(owner_id)).fetchone()[0]

    def status_counts(self, conn: sqlite3.Connection, owner_id: int | None = None) -> dict[str, int]:
        """Rows per status value, every state listed (0 when none)."""
        counts = dict.fromkeys(self.states, 0)
        for status, n in conn.execute(self.status_count_sql, self._scope(owner_id)).fetchall():
            counts[status] = n
        return counts


# ---- per-app schema and tables (generated below this line) ----
SCHEMA: tuple[str, ...] = ()
TABLES: dict[str, Table] = {}
