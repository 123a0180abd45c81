"""Soft delete (`delete = "soft"`) turned into a hard delete behind a working API: DELETE removes
the row and the app keeps the record in memory for its deleted list and its restore. Every HTTP
check passes such an app; the harness's read of the SQLite file after the checks must fail it, and
only that check. Real uvicorn; the generated app passes both."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import write_files
from served_app import served_app, spec_from_toml

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files

SPEC = '''title = "Job Tracker"
auth = true

[[entities]]
name = "job"
delete = "soft"
fields = [{ name = "title", required = true }, { name = "price", kind = "money" }]
'''
HTTP = "a deleted job leaves the list, is listed deleted and restored equal"
KEPT = "a deleted job is still a row in the database"

# appended to src/models.py: the row goes, a copy stays in memory where the API reads it
_IN_MEMORY = '''

_GONE: dict = {}
_soft_delete = Table.delete


def _hard_delete(self, conn, row_id, owner_id=None):
    if not _soft_delete(self, conn, row_id, owner_id):
        return False
    row = dict(conn.execute(f'SELECT * FROM "{self.name}" WHERE "id" = ?', (row_id,)).fetchone())
    with conn:
        conn.execute(f'DELETE FROM "{self.name}" WHERE "id" = ?', (row_id,))
    _GONE[(self.name, row_id)] = row
    return True


def deleted_rows(conn, name, owner_id=None, limit=100, offset=0):
    return [row for (table, _), row in _GONE.items() if table == name and row["owner_id"] == int(owner_id)]


def restore(conn, name, row_id, owner_id=None):
    row = _GONE.get((name, row_id))
    if row is None or row["owner_id"] != int(owner_id):
        return None
    del _GONE[(name, row_id)]
    columns = ", ".join(f'"{c}"' for c in row)
    with conn:
        conn.execute(f'INSERT INTO "{name}" ({columns}) VALUES ({", ".join("?" for _ in row)})',
                     (*[None if c == "deleted_at" else v for c, v in row.items()],))
    return TABLES[name].get(conn, row_id, owner_id)


Table.delete = _hard_delete
'''


def deletes_the_row(ws: Path) -> None:
    models = ws / "src" / "models.py"
    models.write_text(models.read_text(encoding="utf-8") + _IN_MEMORY, encoding="utf-8")


def _checks(spec, generated: Path, tmp_path: Path, brk=None) -> dict[str, object]:
    ws = shutil.copytree(generated, tmp_path / "ws")
    if brk is not None:
        brk(ws)
    db = tmp_path / "app.db"
    with served_app(ws, db) as app:
        got = run_acceptance(app.base, spec, [], [], db=db, only=lambda c: c.name == HTTP)
    return {c.name: c for c in got if c.name in (HTTP, KEPT)}


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    base = tmp_path_factory.mktemp("jobs")
    spec = spec_from_toml(base, SPEC)
    return spec, write_files(generate_files(spec), base / "generated")


@pytest.mark.slow
def test_a_soft_delete_made_hard_fails_only_the_database_check_bug(jobs, tmp_path):
    spec, generated = jobs
    fine = _checks(spec, generated, tmp_path / "ok")
    assert sorted(fine) == sorted([HTTP, KEPT]) and all(c.ok for c in fine.values()), fine
    broken = _checks(spec, generated, tmp_path / "broken", deletes_the_row)
    assert sorted(broken) == sorted([HTTP, KEPT]), broken
    assert broken[HTTP].ok, broken[HTTP].detail
    assert not broken[KEPT].ok and "a hard delete" in broken[KEPT].detail, broken[KEPT]
