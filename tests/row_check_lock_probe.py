"""Run inside a generated workspace (cwd = workspace): does the row check of one entity hold
SQLite's write lock from before its reads until the write? Two connections, no timing: A runs
`_check_row`; B (timeout=0) asks for the write lock and must be told "database is locked" until
A's insert commits; then a create of the same place over HTTP is refused (409) and its request
leaves no lock behind. Prints one line per failed step and exits 1 when any failed.

    python row_check_lock_probe.py ENTITY URL REFS_JSON BODY_JSON

REFS_JSON: {field: [collection URL, body]}, records made first and referred to by the body.
"""

from __future__ import annotations

import importlib
import json
import os
import sqlite3
import sys
import tempfile

DB = os.path.join(tempfile.mkdtemp(), "probe.db")
os.environ["APP_DB_PATH"] = DB
os.environ["APP_PASSWORD_HASH_ITERATIONS"] = "1000"
sys.path.insert(0, os.getcwd())

from fastapi.testclient import TestClient  # noqa: E402

from src import models  # noqa: E402
from src.main import app  # noqa: E402


def takes_lock(conn: sqlite3.Connection) -> bool:
    """True when `conn` got the write lock (then released again); False when the database is locked."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "database is locked" not in str(exc):
            raise
        return False
    conn.rollback()
    return True


def probe(ident: str, url: str, refs: dict, body: dict) -> list[str]:
    api = importlib.import_module(f"src.api_{ident}")
    failed = []
    with TestClient(app) as client:
        creds = {"username": "prober", "password": "prober-password"}
        assert client.post("/api/auth/register", json=creds).status_code == 201
        headers = {"Authorization": f"Bearer {client.post('/api/auth/login', json=creds).json()['token']}"}
        for field, (ref_url, ref_body) in refs.items():
            made = client.post(ref_url, json=ref_body, headers=headers)
            assert made.status_code == 201, made.text
            body[field] = made.json()["id"]
        user = client.get("/api/auth/me", headers=headers).json()
        db, other = models.connect(), sqlite3.connect(DB, timeout=0)
        try:
            owner = api.as_viewer(db, user) if hasattr(api, "as_viewer") else user["id"]
            api._check_row(db, body, owner)
            if takes_lock(other):
                failed.append("after the row check another connection took the write lock: "
                              "the check and the write are two transactions")
            api.TABLE.insert(db, body, owner)
            if db.in_transaction or not takes_lock(other):
                failed.append("the insert did not commit the row check's transaction")
        finally:
            db.close()
        again = client.post(url, json=body, headers=headers)
        if again.status_code != 409:
            failed.append(f"a second create of the same place answered {again.status_code}, not 409")
        if not takes_lock(other):
            failed.append("the refused create's request left the write lock held")
        other.close()
    return failed


def main(argv: list[str]) -> int:
    ident, url, refs, body = argv[0], argv[1], json.loads(argv[2]), json.loads(argv[3])
    failed = probe(ident, url, refs, body)
    for line in failed:
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
