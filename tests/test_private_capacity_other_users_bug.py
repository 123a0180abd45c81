"""The capacity counterpart of tests/test_private_booking_clash_other_users_bug.py. The generated
capacity check already counts every user's records (Table.taken), but the black-box capacity check
filled and over-filled a place as one account only, so an app that counted the caller's own
records would have passed it. Now, with accounts and a place every user may take, the one too many
is also tried by a second account and must be 409."""

from __future__ import annotations

from pathlib import Path

import httpx

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from served_app import served

SPEC = '''title = "Private loans"
auth = true
pages = false

[[entities]]
name = "tool"
shared = true
fields = [{ name = "name", required = true }]

[[entities]]
name = "loan"
fields = [{ name = "tool", ref = "tool", required = true }, { name = "note" }]
features = [{ kind = "capacity", fields = ["tool"], options = { limit = 1 } }]
'''
CHECK = "capacity on loans"
QUOTED = "quoted={'id': '\"id\"', "


def _files(tmp_path: Path):
    path = tmp_path / "private_loans.toml"
    path.write_text(SPEC, encoding="utf-8")
    spec = load_spec_file(path)
    return spec, generate_files(spec)


def _user(http: httpx.Client, name: str) -> dict[str, str]:
    credentials = {"username": name, "password": "correct-horse-battery"}
    assert http.post("/api/auth/register", json=credentials).status_code == 201
    return {"Authorization": f"Bearer {http.post('/api/auth/login', json=credentials).json()['token']}"}


def test_a_second_user_finds_a_private_capacity_place_full_bug(tmp_path):
    spec, files = _files(tmp_path)
    with served(write_files(files, tmp_path / "app"), tmp_path / "app.db") as base, \
            httpx.Client(base_url=base, trust_env=False) as http:
        alice, bob = _user(http, "alice"), _user(http, "bobby")
        tool = http.post("/api/tools", json={"name": "Drill"}, headers=alice).json()["id"]
        assert http.post("/api/loans", json={"tool": tool}, headers=alice).status_code == 201
        full = http.post("/api/loans", json={"tool": tool}, headers=bob)
        assert full.status_code == 409 and "alice" not in full.text, full.text
        assert http.get("/api/loans", headers=bob).json() == []
        checks = run_acceptance(base, spec, [], [])
    check = next(c for c in checks if c.name.startswith(CHECK))
    assert check.ok and "another user's too" in check.detail, check.detail


def test_the_capacity_check_fails_an_app_that_counts_one_users_records_bug(tmp_path):
    spec, files = _files(tmp_path)
    api, models = files["src/api_loan.py"], files["src/models.py"]
    assert "TABLE.taken(db, place, " in api and QUOTED in models
    broken = {**files, "src/api_loan.py": api.replace("TABLE.taken(db, place, ",
                                                      "TABLE.taken(db, {**place, 'owner_id': int(owner_id)}, "),
              "src/models.py": models.replace(QUOTED, QUOTED + "'owner_id': '\"owner_id\"', ")}
    with served(write_files(broken, tmp_path / "broken"), tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    failed = [(c.name, c.detail) for c in checks if not c.ok]
    assert [name for name, _ in failed] and all(name.startswith(CHECK) for name, _ in failed), failed
    assert "second user" in failed[0][1], failed
