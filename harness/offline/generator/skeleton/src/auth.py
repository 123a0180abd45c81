"""Accounts and bearer-token sessions under /api/auth.

Passwords are hashed with PBKDF2-HMAC-SHA256 and a 16-byte random salt. The iteration count is
APP_PASSWORD_HASH_ITERATIONS (default 600000; the tests lower it for speed) and is stored inside
each hash, so changing it never locks anyone out. Session tokens come from
secrets.token_urlsafe(32); only their SHA-256 digest is stored (table "sessions"), for 7 days.
Pages may carry the same token in the `session` cookie instead of the Authorization header.

Logins are throttled: after MAX_FAILURES wrong passwords for one account from one client
address, or MAX_CLIENT_FAILURES from one client address over all accounts, further attempts of
that pair (or client) answer 429 (with Retry-After) for a delay that doubles with every failure,
up to MAX_DELAY_S; a successful login clears the pair's count. An account is never locked as
such: a stranger's failures lock the stranger out, not the account's owner. The counters live
on the FastAPI app (app.state), bounded to MAX_TRACKED keys.

New passwords (registration) are at least 8 characters and not one of COMMON_PASSWORDS.
"""

import hashlib
import hmac
import math
import os
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field, field_validator

from src.models import get_db, now

DEFAULT_ITERATIONS = 600_000
SESSION_DAYS = 7
COOKIE_NAME = "session"
MAX_FAILURES = 5            # per (client address, account)
MAX_CLIENT_FAILURES = 20    # per client address, over all accounts
BASE_DELAY_S = 1.0
MAX_DELAY_S = 300.0
MAX_TRACKED = 10_000

router = APIRouter(prefix="/api/auth", tags=["auth"])
bearer_scheme = HTTPBearer(auto_error=False)
Db = Annotated[sqlite3.Connection, Depends(get_db)]
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)]


class Credentials(BaseModel):
    username: str = Field(min_length=3, max_length=50)
    password: str = Field(min_length=8, max_length=128)


COMMON_PASSWORDS = frozenset({
    "password", "password1", "password12", "password123", "passw0rd", "p@ssw0rd", "12345678", "123456789",
    "1234567890", "87654321", "11111111", "00000000", "12341234", "qwertyui", "qwerty12", "qwerty123",
    "qwertyuiop", "1q2w3e4r", "1qaz2wsx", "zaq12wsx", "asdfghjk", "iloveyou", "sunshine", "princess",
    "football", "baseball", "superman", "starwars", "welcome1", "letmein1", "trustno1", "abc12345",
    "abcd1234", "admin123", "changeme", "whatever", "computer", "internet", "michelle", "jennifer",
})


class NewAccount(Credentials):
    """Credentials of a new account: the password is not a common one."""

    @field_validator("password")
    @classmethod
    def not_common(cls, password: str) -> str:
        if password.lower() in COMMON_PASSWORDS:
            raise ValueError("password is too common; choose another")
        return password


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


class LoginThrottle:
    """Failed-login counters per (client address, account) and per client address, with a
    doubling lockout of that pair or that client (never of the account for everyone)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # key -> (n, locked until)

    @staticmethod
    def _keys(username: str, client: str) -> tuple[tuple[str, int], tuple[str, int]]:
        return ((f"pair:{client}|{username.strip().lower()[:254]}", MAX_FAILURES),
                (f"client:{client}", MAX_CLIENT_FAILURES))

    def wait(self, username: str, client: str) -> int:
        """Whole seconds until a login for `username` from `client` is allowed (0: now)."""
        now = self.clock()
        waits = [self.failures[key][1] - now for key, _ in self._keys(username, client) if key in self.failures]
        return math.ceil(max([w for w in waits if w > 0], default=0))

    def failed(self, username: str, client: str) -> None:
        for key, limit in self._keys(username, client):
            count = self.failures.pop(key, (0, 0.0))[0] + 1
            doublings = min(count - limit, 30)  # bounded: no float overflow
            delay = 0.0 if count < limit else min(BASE_DELAY_S * 2 ** doublings, MAX_DELAY_S)
            self.failures[key] = (count, self.clock() + delay)
        while len(self.failures) > MAX_TRACKED:
            self.failures.popitem(last=False)

    def succeeded(self, username: str, client: str) -> None:
        self.failures.pop(self._keys(username, client)[0][0], None)


def login_throttle(request: Request) -> LoginThrottle:
    """The app's throttle (created on first use)."""
    state = request.app.state
    if getattr(state, "login_throttle", None) is None:
        state.login_throttle = LoginThrottle()
    return state.login_throttle


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


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


@router.post("/register", status_code=201, response_model=UserOut,
             responses={409: {"description": "Username already taken"},
                        422: {"description": "Invalid username, or a password too short or too common"}})
def register(body: NewAccount, db: Db) -> dict[str, Any]:
    user = create_user(db, body.username, body.password)
    if user is None:
        raise HTTPException(409, "username already taken")
    return user


@router.post("/login", response_model=TokenOut,
             responses={401: {"description": "Invalid username or password"},
                        422: {"description": "Invalid username or password shape"},
                        429: {"description": "Too many failed logins; retry after Retry-After seconds"}})
def login(body: Credentials, request: Request, db: Db) -> dict[str, Any]:
    throttle, client = login_throttle(request), client_address(request)
    wait = throttle.wait(body.username, client)
    if wait:
        raise HTTPException(429, f"too many failed logins; try again in {wait} s",
                            headers={"Retry-After": str(wait)})
    user = authenticate(db, body.username, body.password)
    if user is None:
        throttle.failed(body.username, client)
        raise HTTPException(401, "invalid username or password", headers={"WWW-Authenticate": "Bearer"})
    throttle.succeeded(body.username, client)
    return {"token": start_session(db, user["id"]), "token_type": "bearer"}


@router.post("/logout", status_code=204, response_class=Response,
             responses={401: {"description": "Missing or invalid bearer token"}})
def logout(credentials: Bearer, user: CurrentUser, db: Db) -> None:
    end_session(db, credentials.credentials)
    return None  # the route's 204: an empty body, no content type


@router.get("/me", response_model=UserOut, responses={401: {"description": "Missing or invalid bearer token"}})
def me(user: CurrentUser) -> dict[str, Any]:
    return user
