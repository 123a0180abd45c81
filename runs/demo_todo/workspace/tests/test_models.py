"""Schema and data-access tests for src/models.py (no web layer involved)."""

import shutil
import sqlite3

import pytest

from src import models
from src.models import TABLES


@pytest.fixture(scope="module")
def schema_file(tmp_path_factory):
    """A database file with every table created by models.init_db(), made once per module."""
    path = tmp_path_factory.mktemp("schema") / "models.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("APP_DB_PATH", str(path))
        models.init_db()
    return path


@pytest.fixture
def conn(schema_file, tmp_path, monkeypatch):
    """A connection to the test's own fresh database: a byte copy of the schema file."""
    path = tmp_path / "models.db"
    shutil.copyfile(schema_file, path)
    monkeypatch.setenv("APP_DB_PATH", str(path))
    connection = models.connect()
    yield connection
    connection.close()


def make_owner(conn, username="alice"):
    return None


def make_todo(conn, owner):
    values = {'title': 'Sample text'}
    return TABLES['todo'].insert(conn, values, owner)["id"]


@pytest.mark.req('REQ-001')
@pytest.mark.req('REQ-002')
@pytest.mark.req('REQ-003')
def test_init_db_is_idempotent_and_enforces_foreign_keys(conn):
    models.init_db()
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(TABLES) <= names
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


@pytest.mark.req('REQ-001')
@pytest.mark.req('REQ-002')
@pytest.mark.req('REQ-003')
def test_init_db_creates_every_table_or_none(tmp_path, monkeypatch):
    path = tmp_path / "half.db"
    monkeypatch.setenv("APP_DB_PATH", str(path))
    monkeypatch.setattr(models, "SCHEMA", [*models.SCHEMA, "CREATE TABLE broken (x INTEGER REFERENCES"])
    with pytest.raises(sqlite3.Error):
        models.init_db()
    check = sqlite3.connect(path)
    names = check.execute("SELECT name FROM sqlite_master").fetchall()
    check.close()
    assert names == []  # all or nothing: no table of the schema was left behind


@pytest.mark.req('REQ-001')
@pytest.mark.req('REQ-002')
def test_todo_insert_get_list_update_delete(conn):
    owner = make_owner(conn)
    values = {'title': 'Sample text'}
    row = TABLES['todo'].insert(conn, values, owner)
    assert isinstance(row["id"], int)
    assert {key: row[key] for key in values} == values
    assert TABLES['todo'].get(conn, row["id"], owner) == row
    assert [r["id"] for r in TABLES['todo'].rows(conn, owner)] == [row["id"]]
    changed = TABLES['todo'].update(conn, row["id"], {'title': 'Changed text'}, owner)
    assert changed == {**row, **{'title': 'Changed text'}}
    assert TABLES['todo'].count(conn, owner) == 1
    assert TABLES['todo'].delete(conn, row["id"], owner) is True
    assert TABLES['todo'].get(conn, row["id"], owner) is None
    assert TABLES['todo'].delete(conn, row["id"], owner) is False
    assert TABLES['todo'].update(conn, row["id"], {}, owner) is None


@pytest.mark.req('REQ-001')
def test_todo_values_are_bound_not_spliced(conn):
    owner = make_owner(conn)
    row_id = make_todo(conn, owner)
    hostile = "x'); DROP TABLE \"todo\"; --"
    row = TABLES['todo'].update(conn, row_id, {'title': hostile}, owner)
    assert row['title'] == hostile
    assert TABLES['todo'].count(conn, owner) == 1


@pytest.mark.req('REQ-003')
def test_todo_status_starts_open_and_can_be_done(conn):
    owner = make_owner(conn)
    row_id = make_todo(conn, owner)
    assert TABLES['todo'].get(conn, row_id, owner)["status"] == 'open'
    assert TABLES['todo'].set_status(conn, row_id, 'done', owner)["status"] == 'done'
    assert TABLES['todo'].status_counts(conn, owner) == {'open': 0, 'done': 1}
    with pytest.raises(sqlite3.IntegrityError):
        TABLES['todo'].set_status(conn, row_id, "not-a-state", owner)
