"""src/auth.py (accounts, password hashing, bearer sessions, login throttling: a skeleton file)
and its tests, tests/test_auth.py."""

from __future__ import annotations

from harness.offline.generator.codegen import fill, lit, marks, module
from harness.offline.generator.setup_files import TEST_PASSWORD
from harness.offline.generator.skeleton_files import skeleton

_TESTS = '''
"""Tests for src/auth.py: registration, login, sessions, password storage."""

import sqlite3
from contextlib import closing

import pytest

from src import auth, models

PASSWORD = @@password@@


@pytest.fixture
def client(make_client):
    return make_client(auth.router)


@@marks@@def test_register_login_me_logout(client):
    response = client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
    assert response.status_code == 201
    assert response.json() == {"id": response.json()["id"], "username": "alice"}
    assert "password" not in response.text
    response = client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD})
    assert response.status_code == 200
    token = response.json()["token"]
    assert response.json()["token_type"] == "bearer" and len(token) >= 32
    headers = {"Authorization": f"Bearer {token}"}
    me = client.get("/api/auth/me", headers=headers)
    assert me.status_code == 200 and me.json()["username"] == "alice"
    assert "password" not in me.text
    assert client.post("/api/auth/logout", headers=headers).status_code == 204
    assert client.get("/api/auth/me", headers=headers).status_code == 401


@@marks@@def test_duplicate_username_is_409(client):
    body = {"username": "alice", "password": PASSWORD}
    assert client.post("/api/auth/register", json=body).status_code == 201
    response = client.post("/api/auth/register", json=body)
    assert response.status_code == 409
    assert response.json()["detail"] == "username already taken"


@@marks@@def test_wrong_password_and_unknown_user_are_401(client):
    client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
    for body in ({"username": "alice", "password": "wrong-password"},
                 {"username": "nobody", "password": PASSWORD}):
        response = client.post("/api/auth/login", json=body)
        assert response.status_code == 401
        assert "token" not in response.json()


@@marks@@def test_missing_or_bad_token_is_401_with_www_authenticate(client):
    for headers in ({}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Basic abc"}):
        response = client.get("/api/auth/me", headers=headers)
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"


@@marks@@def test_invalid_credentials_shape_is_422(client):
    cases = [
        {"username": "al", "password": PASSWORD},
        {"username": "alice", "password": "short"},
        {"username": "a" * 100_000, "password": PASSWORD},
        {"username": ["alice"], "password": PASSWORD},
        {"username": "alice"},
    ]
    for body in cases:
        assert client.post("/api/auth/register", json=body).status_code == 422
    broken = client.post("/api/auth/register", content=b"{not json",
                         headers={"Content-Type": "application/json"})
    assert broken.status_code == 422


@@marks@@def test_passwords_are_salted_hashes(db_path, client):
    for name in ("alice", "bobby"):
        client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    with closing(sqlite3.connect(db_path)) as conn:
        hashes = [row[0] for row in conn.execute('SELECT "password_hash" FROM "users"')]
    assert len(hashes) == 2 and hashes[0] != hashes[1]
    assert all(PASSWORD not in h and h.startswith("pbkdf2_sha256$") for h in hashes)
    assert auth.verify_password(PASSWORD, hashes[0])
    assert not auth.verify_password("wrong-password", hashes[0])
    assert not auth.verify_password(PASSWORD, "garbage")


@@marks@@def test_repeated_failed_logins_are_throttled_with_429(client):
    now = [1000.0]
    client.app.state.login_throttle = auth.LoginThrottle(clock=lambda: now[0])
    client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
    wrong = {"username": "alice", "password": "wrong-password"}
    for _ in range(auth.MAX_FAILURES):
        assert client.post("/api/auth/login", json=wrong).status_code == 401
    locked = client.post("/api/auth/login", json=wrong)
    assert locked.status_code == 429 and locked.headers["retry-after"] == "1"
    right = {"username": "alice", "password": PASSWORD}
    assert client.post("/api/auth/login", json=right).status_code == 429
    now[0] += 1.5
    assert client.post("/api/auth/login", json=wrong).status_code == 401
    assert client.post("/api/auth/login", json=right).headers["retry-after"] == "2"
    now[0] += 60
    assert client.post("/api/auth/login", json=right).status_code == 200
    assert "user:alice" not in client.app.state.login_throttle.failures


@@marks@@def test_login_lockout_is_bounded(client):
    now = [0.0]
    throttle = client.app.state.login_throttle = auth.LoginThrottle(clock=lambda: now[0])
    for _ in range(100):
        throttle.failed("mallory", "10.0.0.1")
    assert throttle.wait("mallory", "10.0.0.1") == int(auth.MAX_DELAY_S)
    for i in range(auth.MAX_TRACKED + 10):
        throttle.failed(f"user{i}", "10.0.0.2")
    assert len(throttle.failures) <= auth.MAX_TRACKED


@@marks@@def test_default_hash_cost_is_high(monkeypatch):

    monkeypatch.delenv("APP_PASSWORD_HASH_ITERATIONS", raising=False)
    assert auth._iterations() >= 200_000


@@marks@@def test_only_token_digests_are_stored(db_path, client, login):
    headers = login(client, "alice")
    token = headers["Authorization"].split()[1]
    with closing(models.connect()) as conn:
        stored = [row[0] for row in conn.execute('SELECT "token_hash" FROM "sessions"')]
    assert stored and token not in stored
'''


def auth_py() -> str:
    """src/auth.py: the skeleton file, verbatim."""
    return skeleton("src/auth.py")


def test_auth_py(req_ids: tuple[str, ...]) -> str:
    """tests/test_auth.py with every test marked with the auth requirements."""
    return module(fill(_TESTS, password=lit(TEST_PASSWORD), marks=marks(req_ids)))
