"""The generated conftest's fixtures keep their contract while they got cheaper (#19, per-entity cost).

`db_path` still gives every test a fresh database of its own with every table created — now a byte
copy of a schema template that `models.init_db()` builds once per session, instead of creating
every table in every test (O(entities) per test, O(entities²) per build). `make_client` opens
each test's clients for the whole test (one event loop, in the test's own thread, for all their
requests, closed at teardown) instead of starting a thread and an event loop per request, on an app built once per
test module (FastAPI builds an included router's routes on an app's first request) whose
`app.state` is new for every test. The tests below run the generated workspace's own pytest, in
a real subprocess, with a contract file added to it.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.models.spec import AppSpec, DataEntity, EntityField, Page, Requirement
from harness.offline.generator.units import generate_files
from harness.verification.plugins import disable_args
from helpers import write_files

CONTRACT = '''
import asyncio
import sqlite3
import threading
from contextlib import closing

from fastapi import APIRouter

from src import api_book, models

SEEN = {}
probe = APIRouter()


@probe.get("/loop-thread")
async def loop_thread():
    return {"ident": threading.get_ident(), "loop": id(asyncio.get_running_loop())}


def schema(path):
    with closing(sqlite3.connect(path)) as conn:
        return sorted(conn.execute("SELECT type, name, sql FROM sqlite_master").fetchall())


def row_counts(path):
    with closing(sqlite3.connect(path)) as conn:
        return {name: conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in models.TABLES}


def test_a_writes_a_row(db_path, schema_template):
    SEEN["db"], SEEN["template"] = db_path, schema_template
    with closing(models.connect()) as conn:
        models.TABLES["book"].insert(conn, {"title": "kept only here"})
    assert row_counts(db_path)["book"] == 1


def test_b_gets_a_fresh_database_of_its_own_with_every_table(db_path, schema_template, tmp_path, monkeypatch):
    assert db_path != SEEN["db"] and row_counts(SEEN["db"])["book"] == 1
    assert schema_template == SEEN["template"]  # made once per session
    assert set(row_counts(db_path).values()) == {0}
    fresh = tmp_path / "made_by_init_db.db"
    monkeypatch.setenv("APP_DB_PATH", str(fresh))
    models.init_db()
    assert schema(db_path) == schema(fresh)  # the copy is what init_db makes


def test_c_a_client_serves_all_its_requests_on_one_event_loop_in_the_tests_thread(make_client):
    client = make_client(probe, api_book.router)
    first = client.get("/loop-thread").json()
    assert first["ident"] == threading.get_ident()  # no hand-off to another thread
    assert client.post("/api/books", json={"title": "t"}).status_code == 201
    assert client.get("/loop-thread").json() == first
    assert not client.is_closed
    SEEN["client"] = client


def test_d_the_previous_tests_client_was_closed_at_its_teardown(make_client):
    assert SEEN["client"].is_closed and SEEN["client"].loop_closed()
    assert make_client(api_book.router).get("/api/books").json() == []


def test_e_leaves_state_on_its_app(make_client):
    client = make_client(api_book.router)
    client.app.state.marker = "left by test e"
    SEEN["app"] = client.app


def test_f_gets_the_modules_app_with_fresh_state_and_data(make_client):
    client = make_client(api_book.router)
    assert client.app is SEEN["app"]  # routes built once per module
    assert getattr(client.app.state, "marker", None) is None
    assert client.get("/api/books").json() == []
'''


def books_spec() -> AppSpec:
    return AppSpec(
        title="Books", pages=[Page(name="Books", route="/", entity="book")],
        data_model=[DataEntity(name="book", plural="books", ident="book", fields=[
            EntityField(name="title", ident="title", type="str", required=True)])],
        requirements=[Requirement(id="REQ-001", text="Add and list books", capability="crud", entity="book"),
                      Requirement(id="REQ-002", text="Health check and home page", capability="health")])


def run_pytest(root, *args) -> subprocess.CompletedProcess:
    """The workspace's pytest with the plugins the verifier gives it (the foreign ones off: hypothesis's
    alone imports hypothesis at the end of the session, ~1-2 s here)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("APP_", "HARNESS_", "PYTEST_"))}
    plugins = disable_args((root / "requirements.txt").read_text())
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugins, *args], cwd=root,
                          env={**env, "PYTHONDONTWRITEBYTECODE": "1"}, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
def test_generated_fixtures_give_fresh_databases_and_one_event_loop_per_client(tmp_path):
    root = write_files(generate_files(books_spec()), tmp_path / "ws")
    (root / "tests" / "test_fixture_contract.py").write_text(CONTRACT)
    result = run_pytest(root, "tests/test_fixture_contract.py")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert result.stdout.splitlines()[-1].startswith("6 passed")


@pytest.mark.slow
def test_a_broken_init_db_still_fails_every_test_that_needs_a_database(tmp_path):
    root = write_files(generate_files(books_spec()), tmp_path / "ws")
    models = root / "src" / "models.py"
    text = models.read_text()
    models.write_text(text.replace("            conn.execute(statement)\n", "            pass\n", 1))
    result = run_pytest(root, "tests/test_api_book.py")
    assert result.returncode == 1, result.stdout[-3000:]
    assert "no such table" in result.stdout
    assert " passed" not in result.stdout.splitlines()[-1]


INIT_DB_PROBE = '''
import sqlite3, sys
from contextlib import closing
from src import models

models.SCHEMA = [*models.SCHEMA, "CREATE TABLE broken (x INTEGER REFERENCES"]  # the last one fails
try:
    models.init_db()
except sqlite3.Error:
    pass
else:
    sys.exit("init_db did not raise")
with closing(sqlite3.connect(models.db_path())) as conn:
    print(sorted(row[0] for row in conn.execute("SELECT name FROM sqlite_master")))
models.SCHEMA = models.SCHEMA[:-1]
models.init_db()
with closing(sqlite3.connect(models.db_path())) as conn:
    print(sorted(row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")))
'''


def test_init_db_commits_each_create_on_its_own_bug(tmp_path):
    """init_db ran every CREATE as its own autocommitted transaction (sqlite3 opens none before
    DDL): a journal sync per statement, ~23 ms for 21 statements at 20 entities against ~2.4 ms in
    one, in every mutant child and session — and a failing statement left the tables before it."""
    root = write_files(generate_files(books_spec()), tmp_path / "ws")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("APP_", "HARNESS_", "PYTEST_"))}
    result = subprocess.run([sys.executable, "-c", INIT_DB_PROBE], cwd=root, capture_output=True, text=True,
                            env={**env, "APP_DB_PATH": str(tmp_path / "probe.db"), "PYTHONDONTWRITEBYTECODE": "1"},
                            timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    nothing_left, created = result.stdout.splitlines()
    assert nothing_left == "[]"  # all or nothing
    assert "book" in created and "broken" not in created
