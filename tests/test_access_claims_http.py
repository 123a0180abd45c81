"""The false passes of tests/test_access_claims.py, end to end: a real `builder new`, the app served by
real uvicorn on a fresh database, used over HTTP by two accounts (stranger trial 2026-12-07e)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest
from served_app import served, spec_from_toml

from harness.acceptance import run_acceptance

pytestmark = pytest.mark.slow

PASSWORD = "A-long-passphrase-1"


def _build(tmp_path, *args: str) -> tuple[subprocess.CompletedProcess, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI")}
    env["HARNESS_RUNS_DIR"] = str(tmp_path / "runs")
    done = subprocess.run([sys.executable, "-m", "harness.cli", "new", *args, "--run-id", "run", "--no-audit"],
                          capture_output=True, text=True, timeout=900, cwd=tmp_path, env=env)
    return done, tmp_path / "runs" / "run"


def _account(http: httpx.Client, name: str) -> dict[str, str]:
    creds = {"username": name, "password": PASSWORD}
    assert http.post("/api/auth/register", json=creds).status_code in (200, 201)
    token = http.post("/api/auth/login", json=creds).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def test_users_add_while_only_admins_delete_is_not_built_and_members_add_over_http_bug(tmp_path):
    """F3: BUILD FAILED naming the delete-only rule; a member (second account) adds and lists recipes."""
    done, run = _build(tmp_path, "A recipe app with login. Users can add recipes. Only admins can delete recipes.")
    assert done.returncode == 1 and "BUILD FAILED" in done.stdout, done.stdout[-3000:]
    spec = json.loads((run / "spec.json").read_text())
    only = next(c for c in spec["clauses"] if c["text"].startswith("Only admins"))
    assert only["status"] == "not_built" and "Only admins" in only["unaccounted"], only
    assert not any(e.get("manage") for e in spec["data_model"])
    with served(run / "workspace", tmp_path / "app.db") as base, httpx.Client(base_url=base, trust_env=False) as http:
        admin, member = _account(http, "ann"), _account(http, "bob")
        assert http.post("/api/recipes", json={"title": "Bread"}, headers=admin).status_code == 201
        added = http.post("/api/recipes", json={"title": "Soup"}, headers=member)
        assert added.status_code == 201, added.text
        assert [r["title"] for r in http.get("/api/recipes", headers=member).json()] == ["Soup"]


def test_data_checks_run_as_an_ordinary_account_where_it_has_the_right_bug(tmp_path):
    """F3's invariant: an app that refuses members adding fails the CRUD checks of a spec that gives
    them the right (before, they ran as the first account, the admin, and passed)."""
    managed = '''
title = "Recipes"
auth = { roles = ["admin", "member"] }
pages = false
[[entities]]
name = "recipe"
manage = "admin"
fields = [{ name = "title", required = true }]
'''
    (tmp_path / "managed.toml").write_text(managed)
    done, run = _build(tmp_path, "--spec", str(tmp_path / "managed.toml"))
    assert done.returncode == 0, done.stdout[-3000:]
    open_spec = spec_from_toml(tmp_path, managed.replace('manage = "admin"\n', ""), "open.toml")
    same_spec = spec_from_toml(tmp_path, managed, "same.toml")
    with served(run / "workspace", tmp_path / "app.db") as base:
        refused = [c for c in run_acceptance(base, open_spec, [], []) if not c.ok]
    with served(run / "workspace", tmp_path / "again.db") as base:
        held = [c for c in run_acceptance(base, same_spec, [], []) if not c.ok]
    names = {c.name for c in refused}
    assert {"create a recipe with every field and read it back", "list shows every created recipe",
            "update a recipe and read it back", "delete a recipe"} <= names, [(c.name, c.detail) for c in refused]
    assert all("403" in c.detail for c in refused), [(c.name, c.detail) for c in refused]
    assert held == [], [(c.name, c.detail) for c in held]


def test_owned_by_a_user_with_login_keeps_each_users_items_over_http_bug(tmp_path):
    """F1: without login the clause is not built naming "owned" and "user"; with login it is built and
    each account's items are its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI")}
    drafted = subprocess.run([sys.executable, "-m", "harness.cli", "spec", "An item tracker. Item can be owned by a user."],
                             capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert 'not understood: "owned", "user"' in drafted.stdout, drafted.stdout
    done, run = _build(tmp_path, "An item tracker with login. Item can be owned by a user.")
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:]
    with served(run / "workspace", tmp_path / "app.db") as base, httpx.Client(base_url=base, trust_env=False) as http:
        ann, bob = _account(http, "ann"), _account(http, "bob")
        item = http.post("/api/items", json={"name": "drill"}, headers=ann).json()
        assert http.get("/api/items", headers=bob).json() == []
        assert http.get(f"/api/items/{item['id']}", headers=bob).status_code == 404
        assert [i["name"] for i in http.get("/api/items", headers=ann).json()] == ["drill"]


def test_no_sharing_from_a_clause_not_built_over_http_bug(tmp_path):
    """R4: a second account no longer lists the first account's attendance."""
    done, run = _build(tmp_path, "An attendance app with login. The Teacher should be able to view the attendance "
                                 "of all the students.")
    assert done.returncode == 1 and "BUILD FAILED" in done.stdout, done.stdout[-3000:]
    spec = json.loads((run / "spec.json").read_text())
    assert not any(e.get("shared") for e in spec["data_model"])
    with served(run / "workspace", tmp_path / "app.db") as base, httpx.Client(base_url=base, trust_env=False) as http:
        teacher, student = _account(http, "teacher"), _account(http, "alice")
        body = {"name": "Bob", "date": "2026-12-07"}
        assert http.post("/api/attendances", json=body, headers=teacher).status_code == 201
        assert http.get("/api/attendances", headers=student).json() == []


def test_managed_and_assigned_requirement_holds_over_http_bug(tmp_path):
    """R4-fix: the requirement says the assignee changes an attendance; over HTTP the assignee does,
    another student does not, and only the teacher role adds and deletes."""
    (tmp_path / "app.toml").write_text('''
title = "Attendance"
auth = { roles = ["teacher", "student"] }
pages = false
[[entities]]
name = "attendance"
manage = "teacher"
assigned_to = "user"
fields = [{ name = "date", kind = "date", required = true }, { name = "present", values = ["present", "absent"] }]
''')
    done, run = _build(tmp_path, "--spec", str(tmp_path / "app.toml"))
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:]
    texts = [r["text"] for r in json.loads((run / "spec.json").read_text())["requirements"]]
    assert "Only the teacher role adds and deletes attendances; the teacher role and the assignee change one" in texts
    with served(run / "workspace", tmp_path / "app.db") as base, httpx.Client(base_url=base, trust_env=False) as http:
        teacher, alice, bob = _account(http, "teacher"), _account(http, "alice"), _account(http, "bob")
        alice_id = http.get("/api/auth/me", headers=alice).json()["id"]
        rec = http.post("/api/attendances", json={"date": "2026-12-07", "present": "absent", "assigned_to": alice_id},
                        headers=teacher).json()
        url = f"/api/attendances/{rec['id']}"
        assert http.post("/api/attendances", json={"date": "2026-12-07"}, headers=alice).status_code == 403
        assert http.put(url, json={"present": "present"}, headers=alice).status_code == 200
        assert http.put(url, json={"present": "absent"}, headers=bob).status_code in (403, 404)
        assert http.delete(url, headers=alice).status_code == 403
        assert http.get(url, headers=teacher).json()["present"] == "present"
