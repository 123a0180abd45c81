"""Builds src/auth.py (accounts, password hashing, bearer sessions) and tests/test_auth.py."""

from __future__ import annotations

from harness.offline.generator.codegen import fill, lit, marks, module
from harness.offline.generator.setup_files import TEST_PASSWORD

AUTH_PY = '''
"""Accounts and bearer-token sessions under /api/auth.

Passwords are hashed with PBKDF2-HMAC-SHA256 and a 16-byte random salt. The iteration count is
APP_PASSWORD_HASH_ITERATIONS (default 600000; the tests lower it for speed) and is stored inside
each hash, so changing it never locks anyone out. Session tokens come from
secrets.token_urlsafe(32); only their SHA-256 digest is stored (table "sessions"), for 7 days.
Pages may carry the same token in the `session` cookie instead of the Authorization header.
"""

import hashlib
import hmac
import os
import secrets
import sqlite3
from datetime import datetime, timedelta, timezone
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from src.models import get_db, now

DEFAULT_ITERATIONS = 600_000
SESSION_DAYS = 7
COOKIE_NAME = "session"

router = APIRouter(prefix="/api/auth", tags=["auth"])
bearer_scheme = HTTPBearer(auto_error=False)
Db = Annotated[sqlite3.Connection, Depends(get_db)]
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)]


class Credentials(BaseModel):
    username: str = Field(min_length=3, max_length=50)
    password: str = Field(min_length=8, max_length=128)


class UserOut(BaseModel):
    id: int
    username: str


class TokenOut(BaseModel):
    token: str
    token_type: str = "bearer"


def _iterations() -> int:
    try:
        return max(1, int(os.environ.get("APP_PASSWORD_HASH_ITERATIONS", DEFAULT_ITERATIONS)))
    except ValueError:
        return DEFAULT_ITERATIONS


def hash_password(password: str) -> str:
    """Return "pbkdf2_sha256$<iterations>$<salt hex>$<digest hex>" with a new random salt."""
    iterations, salt = _iterations(), secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """True when `password` matches the stored hash (constant-time comparison)."""
    try:
        algorithm, iterations, salt, digest = stored.split("$")
        candidate = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), bytes.fromhex(salt),
                                        int(iterations))
    except ValueError:
        return False
    return algorithm == "pbkdf2_sha256" and hmac.compare_digest(candidate.hex(), digest)


def create_user(conn: sqlite3.Connection, username: str, password: str) -> dict[str, Any] | None:
    """The new user, or None when the username is taken."""
    try:
        with conn:
            cursor = conn.execute(
                'INSERT INTO "users" ("username", "password_hash", "created_at") VALUES (?, ?, ?)',
                (username, hash_password(password), now()),
            )
    except sqlite3.IntegrityError:
        return None
    return {"id": cursor.lastrowid, "username": username}


def authenticate(conn: sqlite3.Connection, username: str, password: str) -> dict[str, Any] | None:
    row = conn.execute(
        'SELECT "id", "username", "password_hash" FROM "users" WHERE "username" = ?', (username,)
    ).fetchone()
    if row is None:
        hash_password(password)  # spend the same time as for a real user
        return None
    if not verify_password(password, row["password_hash"]):
        return None
    return {"id": row["id"], "username": row["username"]}


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def start_session(conn: sqlite3.Connection, user_id: int) -> str:
    """A new random session token for the user (only its digest is stored)."""
    token = secrets.token_urlsafe(32)
    expires = (datetime.now(timezone.utc) + timedelta(days=SESSION_DAYS)).isoformat(timespec="seconds")
    with conn:
        conn.execute(
            'INSERT INTO "sessions" ("token_hash", "user_id", "expires_at") VALUES (?, ?, ?)',
            (_digest(token), user_id, expires),
        )
    return token


def end_session(conn: sqlite3.Connection, token: str) -> None:
    with conn:
        conn.execute('DELETE FROM "sessions" WHERE "token_hash" = ?', (_digest(token),))


def user_for_token(conn: sqlite3.Connection, token: str | None) -> dict[str, Any] | None:
    """The user owning an unexpired session token, else None."""
    if not token:
        return None
    row = conn.execute(
        'SELECT "users"."id", "users"."username" FROM "sessions" '
        'JOIN "users" ON "users"."id" = "sessions"."user_id" '
        'WHERE "sessions"."token_hash" = ? AND "sessions"."expires_at" > ?',
        (_digest(token), now()),
    ).fetchone()
    return {"id": row["id"], "username": row["username"]} if row else None


def current_user(credentials: Bearer, db: Db) -> dict[str, Any]:
    """Dependency: the user of the bearer token; 401 with WWW-Authenticate otherwise."""
    user = user_for_token(db, credentials.credentials if credentials else None)
    if user is None:
        raise HTTPException(401, "not authenticated", headers={"WWW-Authenticate": "Bearer"})
    return user


def request_token(request: Request) -> str | None:
    """The bearer token of a request, else its `session` cookie (used by the HTML pages)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return request.cookies.get(COOKIE_NAME)


def page_user(request: Request, conn: sqlite3.Connection) -> dict[str, Any] | None:
    """The signed-in user of an HTML page request, else None."""
    return user_for_token(conn, request_token(request))


CurrentUser = Annotated[dict[str, Any], Depends(current_user)]


@router.post("/register", status_code=201, response_model=UserOut)
def register(body: Credentials, db: Db) -> dict[str, Any]:
    user = create_user(db, body.username, body.password)
    if user is None:
        raise HTTPException(409, "username already taken")
    return user


@router.post("/login", response_model=TokenOut)
def login(body: Credentials, db: Db) -> dict[str, Any]:
    user = authenticate(db, body.username, body.password)
    if user is None:
        raise HTTPException(401, "invalid username or password", headers={"WWW-Authenticate": "Bearer"})
    return {"token": start_session(db, user["id"]), "token_type": "bearer"}


@router.post("/logout", status_code=204)
def logout(credentials: Bearer, user: CurrentUser, db: Db) -> Response:
    end_session(db, credentials.credentials)
    return Response(status_code=204)


@router.get("/me", response_model=UserOut)
def me(user: CurrentUser) -> dict[str, Any]:
    return user
'''

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
    return fill(AUTH_PY)


def test_auth_py(req_ids: tuple[str, ...]) -> str:
    """tests/test_auth.py with every test marked with the auth requirements."""
    return module(fill(_TESTS, password=lit(TEST_PASSWORD), marks=marks(req_ids)))
