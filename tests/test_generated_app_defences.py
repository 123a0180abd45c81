"""Issue 49: what a generated app defends, checked on the app generated from
examples/club_bookings.toml (accounts, four entities, a dashboard) served by real uvicorn:
a stranger cannot lock an account out, bodies are bounded, cross-site form posts are refused,
new passwords follow a minimum policy, and the OpenAPI document lists every 401/404/422 the app
answers (found by calling every operation, not from a list)."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "club_bookings.toml"
PASSWORD = "correct-horse-battery"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(workspace, port) of the generated club app under real uvicorn."""
    root = tmp_path_factory.mktemp("club_app")
    workspace = write_files(generate_files(load_spec_file(EXAMPLE)), root / "ws")
    port = _free_port()
    env = {**os.environ, "APP_DB_PATH": str(root / "app.db"), "APP_PASSWORD_HASH_ITERATIONS": "1000",
           "PYTHONDONTWRITEBYTECODE": "1"}
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "src.main:app", "--port", str(port),
                               "--log-level", "warning"], cwd=workspace, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            if _call(port, "GET", "/health")[0] == 200:
                break
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise AssertionError(f"uvicorn did not start: {server.stderr.read().decode()[-2000:]}")
        time.sleep(0.05)
    try:
        yield workspace, port
    finally:
        server.terminate()
        server.wait(10)


def _call(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
          chunked: bool = False) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        if chunked:
            conn.putrequest(method, path)
            for key, value in {**(headers or {}), "Transfer-Encoding": "chunked"}.items():
                conn.putheader(key, value)
            conn.endheaders()
            try:
                for _ in range(11):
                    piece = b"x" * 100_000
                    conn.send(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                conn.send(b"0\r\n\r\n")
            except OSError:
                pass   # the server answered and closed before reading everything
        else:
            conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _json(port, method, path, data, token: str | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    return _call(port, method, path, json.dumps(data).encode(), headers)


def test_generated_app_accepted_password_and_12345678_as_passwords(served):
    _, port = served
    for weak in ("password", "12345678", "Password", "short"):
        assert _json(port, "POST", "/api/auth/register", {"username": "weakling", "password": weak})[0] == 422, weak
    assert _json(port, "POST", "/api/auth/register", {"username": "policy_ok", "password": PASSWORD})[0] == 201
    form = b"username=formuser&password=12345678"
    status, _ = _call(port, "POST", "/register", form, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 422


def test_generated_app_buffered_100_mb_unauthenticated_bodies(served):
    _, port = served
    status, body = _call(port, "POST", "/api/auth/register", b"x" * (1024 * 1024 + 1),
                         {"Content-Type": "application/json"})
    assert status == 413, body
    status, _ = _call(port, "POST", "/api/auth/register", headers={"Content-Type": "application/json"}, chunked=True)
    assert status == 413


def test_generated_app_accepted_cross_origin_form_posts(served):
    _, port = served
    _json(port, "POST", "/api/auth/register", {"username": "carol", "password": PASSWORD})
    form = f"username=carol&password={PASSWORD}".encode()
    plain = {"Content-Type": "application/x-www-form-urlencoded"}
    for hostile in ({"Origin": "https://evil.example"}, {"Referer": "https://evil.example/page"}, {"Origin": "null"}):
        assert _call(port, "POST", "/login", form, {**plain, **hostile})[0] == 403, hostile
    same = _call(port, "POST", "/login", form, {**plain, "Origin": f"http://127.0.0.1:{port}"})
    assert same[0] == 303


def test_a_stranger_could_lock_any_account_out(served):
    """Bug: failures counted per account locked its owner out. The throttle of the generated app
    (its own module, in a fresh interpreter) keys failures by (client, account) and caps a client."""
    workspace, _ = served
    probe = ("from src import auth\n"
             "t = auth.LoginThrottle(clock=lambda: 0.0)\n"
             "for _ in range(200): t.failed('alice', '203.0.113.9')\n"
             "print(t.wait('alice', '203.0.113.9') > 0, t.wait('alice', '198.51.100.7'))\n"
             "for i in range(auth.MAX_CLIENT_FAILURES): t.failed(f'user{i}', '203.0.113.10')\n"
             "print(t.wait('anyone', '203.0.113.10') > 0)\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=workspace, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "APP_DB_PATH": str(workspace / "probe.db")})
    assert out.stdout.split() == ["True", "0", "True"], out.stderr[-2000:]


def test_openapi_missed_documented_401_404_422_responses(served):
    """Every operation is called as a stranger (no token, ids that do not exist, an empty body);
    each 401/404/422 it answers must be in its OpenAPI responses."""
    _, port = served
    spec = json.loads(_call(port, "GET", "/openapi.json")[1])
    undocumented = []
    for path, operations in spec["paths"].items():
        concrete = path.replace("{item_id}", "987654").replace("{parent_id}", "987654").replace("{slug}", "nosuch")
        for method, operation in operations.items():
            body = b"{}" if method in ("post", "put", "patch") else None
            status, _ = _call(port, method.upper(), concrete, body, {"Content-Type": "application/json"})
            if status in (401, 404, 422) and str(status) not in operation.get("responses", {}):
                undocumented.append(f"{method.upper()} {path} -> {status}")
    assert undocumented == []
