"""Regression (hostile trial i, attack D1): a served app replaced its database file with a symbolic
link to a host file it cannot see, and the harness — outside the sandbox — opened that name,
followed the link and reported the host file's tables in runtime.json. Now the harness reads a
private copy made without following links (harness/sandbox/judged_files.py) and fails the
check with one line when the file is a link or not a regular file."""

from __future__ import annotations

import os
import sqlite3

import pytest

from harness.acceptance import checks_password_store, checks_soft_delete
from harness.verification.runtime import verify_runtime

SECRET_TABLE = "top_secret_customers_ssn"

APP = '''import os

from fastapi import FastAPI

_link = os.environ["APP_DB_PATH"]
os.environ["APP_DB_PATH"] = os.path.join(os.path.dirname(_link), "data.db")   # its records live elsewhere
if os.path.lexists(_link):
    os.remove(_link)
os.symlink(HOST_FILE, _link)   # a host path: dangling in here

app = FastAPI()


@app.get("/health")
def health():
    return {"status": "ok"}
'''


def _secret_db(path) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE {SECRET_TABLE} (ssn TEXT)")
    conn.execute(f"INSERT INTO {SECRET_TABLE} VALUES ('078-05-1120')")
    conn.commit()
    conn.close()


def test_the_runtime_check_does_not_follow_the_apps_link_to_a_host_file(tmp_path):
    secret = tmp_path / "host" / "secret.db"
    secret.parent.mkdir()
    _secret_db(secret)
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "__init__.py").write_text("")
    (ws / "src" / "main.py").write_text(APP.replace("HOST_FILE", repr(str(secret))))
    result = verify_runtime(ws)
    seen = " ".join([c.detail for c in result.checks] + result.evidence)
    assert SECRET_TABLE not in seen
    opens = next(c for c in result.checks if c.name == "sqlite opens")
    assert not opens.ok and "symbolic link" in opens.detail, opens.detail
    assert result.status == "FAIL"


@pytest.mark.parametrize("reader", [checks_password_store._rows, checks_soft_delete._rows])
def test_the_acceptance_database_scans_do_not_follow_a_link(tmp_path, reader):
    secret = tmp_path / "secret.db"
    _secret_db(secret)
    data = tmp_path / "app-data"
    data.mkdir()
    os.symlink(secret, data / "app.db")
    with pytest.raises(sqlite3.Error, match="symbolic link"):
        reader(data / "app.db")


def test_a_fifo_in_place_of_the_database_is_refused_without_waiting(tmp_path):
    data = tmp_path / "app-data"
    data.mkdir()
    os.mkfifo(data / "app.db")
    with pytest.raises(sqlite3.Error, match="not a regular file"):
        checks_soft_delete._rows(data / "app.db")


def test_a_regular_database_is_still_read(tmp_path):
    data = tmp_path / "app-data"
    data.mkdir()
    _secret_db(data / "app.db")
    assert SECRET_TABLE in checks_password_store._rows(data / "app.db")
