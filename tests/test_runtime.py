"""Runtime verification against real uvicorn servers on 127.0.0.1 (SPEC M10)."""

from __future__ import annotations

import os
import re
import socket
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from harness.models.enums import FailureType
from harness.verification import runtime
from harness.verification.runtime import detect_entry, verify_runtime

APP = '''\
import os
import sqlite3

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

app = FastAPI()


def connect():
    conn = sqlite3.connect(os.environ.get("APP_DB_PATH", "app.db"))
    conn.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    return conn


connect().close()


class ItemIn(BaseModel):
    name: str


@app.get("/health")
def health():
    return {"status": "ok"}


@app.get("/api/health")
def api_health():
    return {"status": "ok"}


@app.post("/api/items", status_code=201)
def create_item(item: ItemIn):
    conn = connect()
    with conn:
        cur = conn.execute("INSERT INTO items (name) VALUES (?)", (item.name,))
    conn.close()
    return {"id": cur.lastrowid, "name": item.name}


@app.get("/api/items/{item_id}")
def get_item(item_id: int):
    conn = connect()
    row = conn.execute("SELECT id, name FROM items WHERE id = ?", (item_id,)).fetchone()
    conn.close()
    if row is None:
        raise HTTPException(status_code=404, detail="not found")
    return {"id": row[0], "name": row[1]}


class ChildIn(BaseModel):
    item_id: int


@app.post("/api/children", status_code=201)
def create_child(child: ChildIn):
    return {"id": 1, "item_id": child.item_id}


@app.get("/env")
def env():
    return {"db": os.environ.get("APP_DB_PATH"), "secret_present": "OPENAI_API_KEY" in os.environ}
'''


@dataclass(frozen=True)
class Step:
    """Same attributes as harness.offline.generator.probes.ProbeStep (duck-typed on purpose)."""

    name: str
    method: str
    path: str
    body: dict | None = None
    expect_status: int = 200
    capture: dict[str, str] = field(default_factory=dict)
    auth: bool = False


ROUND_TRIP = [
    Step("create item", "POST", "/api/items", {"name": "milk"}, 201, {"item_id": "id"}),
    Step("get item", "GET", "/api/items/{item_id}", None, 200),
]


def make_app(root: Path, main: str = APP) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "__init__.py").write_text("")
    (root / "src" / "main.py").write_text(main)
    return root


def files_in(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


def check(result, name: str):
    return next(c for c in result.checks if c.name == name)


def server_pid(result) -> int:
    return int(re.search(r"pid=(\d+)", check(result, "process alive").detail).group(1))


def assert_gone(pid: int) -> None:
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


@pytest.fixture(scope="module")
def healthy_run(tmp_path_factory):
    """One real uvicorn run of the healthy app for the three tests of a passing check below (each was a
    server of its own): the round trip, a captured id filled into a later body (create child), and
    /env with OPENAI_API_KEY set in the harness's environment. (workspace, its files before, result)."""
    ws = make_app(tmp_path_factory.mktemp("healthy") / "ws")
    before = files_in(ws)
    steps = [*ROUND_TRIP, Step("env", "GET", "/env"),
             Step("create child", "POST", "/api/children", {"item_id": "{item_id}"}, 201)]
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OPENAI_API_KEY", "sk-test-not-for-apps")
        result = verify_runtime(ws, steps=steps, task_hint="TASK-001")
    return ws, before, result


def test_healthy_app_passes_round_trip_and_leaves_nothing_behind(healthy_run):
    ws, before, result = healthy_run
    assert result.status == "PASS", result.checks
    assert result.failure_type is None
    names = [c.name for c in result.checks]
    assert names[:4] == ["entry point", "process alive", "port accepts", "GET /health"]
    for name in ("GET /docs", "GET /api/health", "sqlite opens",
                 "round trip: create item", "round trip: get item", "round trip: env"):
        assert check(result, name).ok, name
    assert "items" in check(result, "sqlite opens").detail
    assert "GET /api/items/1 → 200" in check(result, "round trip: get item").detail
    assert 'GET /health → 200 {"status":"ok"}' in result.evidence
    assert result.duration_ms > 0
    assert files_in(ws) == before  # no app.db, no __pycache__ in the workspace
    db = re.search(r'"db":"([^"]+)"', check(result, "round trip: env").detail).group(1)
    assert not Path(db).is_relative_to(ws) and not Path(db).exists()
    assert_gone(server_pid(result))


def test_round_trip_wrong_status_fails_and_stops_at_first_failure(tmp_path):
    ws = make_app(tmp_path / "ws")
    steps = [Step("missing item", "GET", "/api/items/999", None, 200), *ROUND_TRIP]

    result = verify_runtime(ws, steps=steps)

    assert result.status == "FAIL"
    failed = check(result, "round trip: missing item")
    assert not failed.ok and "→ 404" in failed.detail and "(expected 200)" in failed.detail
    assert not any(c.name == "round trip: create item" for c in result.checks)
    assert result.failure_type is not None
    assert_gone(server_pid(result))


@pytest.mark.parametrize("step, missing", [
    (ROUND_TRIP[1], "item_id"),
    (Step("me", "GET", "/api/auth/me", auth=True), "token"),
])
def test_round_trip_step_needs_earlier_captures(step, missing):
    # Checked before any request is sent, so no server is needed (port 9 = discard).
    ok, detail = runtime._round_trip("http://127.0.0.1:9", step, {}, runtime._Record())
    assert not ok and detail == f"no captured value for {missing}"


@pytest.mark.parametrize("main, error", [
    ("from fastapi import FastAPI\nundefined_name\napp = FastAPI()\n", "NameError"),
    ("from fastapi import FastAPI\ndef broken(:\napp = FastAPI()\n", "SyntaxError"),
])
def test_broken_main_is_code_error_with_hint_and_no_orphan(tmp_path, main, error):
    ws = make_app(tmp_path / "ws", main)

    result = verify_runtime(ws, task_hint="TASK-003")

    assert result.status == "FAIL"
    assert result.failure_type == FailureType.CODE_ERROR
    assert not check(result, "process alive").ok
    assert error in check(result, "server log").detail
    assert "src/main.py (line 2)" in result.hint and "TASK-003" in result.hint
    assert_gone(server_pid(result))


def test_startup_timeout_kills_the_server(tmp_path):
    slow = "import time\ntime.sleep(3)\nfrom fastapi import FastAPI\napp = FastAPI()\n"
    ws = make_app(tmp_path / "ws", slow)

    result = verify_runtime(ws, startup_timeout_s=0.5)

    assert result.status == "FAIL"
    assert result.failure_type == FailureType.TIMEOUT
    assert not check(result, "port accepts").ok
    assert result.duration_ms < 3000  # killed, not waited for
    assert_gone(server_pid(result))


def test_node_port_taken_before_the_start_is_not_judged(tmp_path, monkeypatch):
    """A start command that cannot take a socket (Node: `--port N`) gets a port number; one another
    process listens on already is not the app's: nothing is judged and the message says so (it
    claims no retry the check does not make)."""
    (tmp_path / "package.json").write_text('{"scripts": {"dev": "vite"}}')
    monkeypatch.setattr(runtime.shutil, "which", lambda name: "/usr/bin/npm")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        monkeypatch.setattr(runtime, "free_port", lambda: holder.getsockname()[1])
        result = verify_runtime(tmp_path)
    assert result.status == "FAIL"
    assert result.failure_type == FailureType.ENVIRONMENT_ERROR
    assert "taken by another process" in check(result, "port accepts").detail
    assert "did not retry" in result.hint and "run it again" in result.hint


def test_python_app_serves_on_the_socket_the_harness_bound(tmp_path, monkeypatch):
    """A port another process holds is never handed to a Python app: it serves on the socket the
    harness bound (uvicorn --fd), so a held port number changes nothing."""
    ws = make_app(tmp_path / "ws")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        monkeypatch.setattr(runtime, "free_port", lambda: holder.getsockname()[1])
        result = verify_runtime(ws)
    assert result.status == "PASS", result.checks
    assert "the app's own" in check(result, "port accepts").detail
    assert any("--fd" in line and "--port" not in line for line in result.evidence if line.startswith("launched"))


def test_no_entry_point_is_config_error(tmp_path):
    (tmp_path / "README.md").write_text("nothing to run\n")
    result = verify_runtime(tmp_path)
    assert result.status == "FAIL"
    assert result.failure_type == FailureType.CONFIG_ERROR
    assert [(c.name, c.ok) for c in result.checks] == [("entry point", False)]
    assert "src/main.py" in result.hint


def test_node_entry_without_npm_is_environment_error(tmp_path, monkeypatch):
    (tmp_path / "package.json").write_text('{"scripts": {"dev": "vite"}}')
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    result = verify_runtime(tmp_path)
    assert result.status == "FAIL"
    assert result.failure_type == FailureType.ENVIRONMENT_ERROR


def test_secrets_do_not_reach_the_app(healthy_run):
    """OPENAI_API_KEY was set for the shared run (healthy_run)."""
    _, _, result = healthy_run
    assert result.status == "PASS", result.checks
    assert '"secret_present":false' in check(result, "round trip: env").detail


@pytest.mark.parametrize("files, expected", [
    ({"src/main.py": "from fastapi import FastAPI\napp = FastAPI()\n"}, ("python", "src.main:app")),
    ({"src/main.py": "app: FastAPI = make()\n"}, ("python", "src.main:app")),
    ({"src/main.py": "app = FastAPI(\nsyntax error here\n"}, ("python", "src.main:app")),
    ({"app.py": "app = object()\n"}, ("python", "app:app")),
    ({"src/main.py": "application = 1\n", "package.json": "{}"}, ("node", "package.json")),
    ({"src/main.py": "def make():\n    app = 1\n"}, None),
    ({"README.md": "hi"}, None),
])
def test_detect_entry(tmp_path, files, expected):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert detect_entry(tmp_path) == expected


def test_free_port_is_bindable():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", runtime.free_port()))


def test_body_placeholder_is_filled_with_the_captured_value_and_type(healthy_run):
    """Regression: a child's parent id in the body was sent as the literal "{item_id}" (422). The
    create child step is the shared run's last (healthy_run)."""
    _, _, result = healthy_run
    assert result.status == "PASS", result.checks
    assert '"item_id":1' in check(result, "round trip: create child").detail


def test_health_that_reports_down_is_not_a_pass(tmp_path):
    """Regression: any 2xx /health passed, even {"status": "down"}."""
    ws = make_app(tmp_path / "ws", APP.replace('def health():\n    return {"status": "ok"}',
                                               'def health():\n    return {"status": "down"}'))
    result = verify_runtime(ws)
    assert result.status == "FAIL"
    assert not check(result, "GET /health").ok and "down" in check(result, "GET /health").detail
    assert_gone(server_pid(result))


def test_a_500_during_a_round_trip_is_a_code_error_with_a_hint(tmp_path):
    """Regression: an app crashing inside a request (ZeroDivisionError → 500) was classified UNKNOWN."""
    ws = make_app(tmp_path / "ws", APP.replace('    return {"db": os.environ.get("APP_DB_PATH")',
                                               '    1 / 0\n    return {"db": os.environ.get("APP_DB_PATH")'))
    result = verify_runtime(ws, steps=[Step("env", "GET", "/env")], task_hint="TASK-004")
    assert result.status == "FAIL" and result.failure_type == FailureType.CODE_ERROR
    assert "src/main.py" in result.hint and "TASK-004" in result.hint
    assert_gone(server_pid(result))
