"""The workspace contract: what the harness relies on in every app, stated once.

The planner and the builder are shown CONTRACT; the runtime check and the verifier rely on the
same points (entry point, /health, APP_DB_PATH, the `req` marker). README "LLM path" repeats it.
"""

from __future__ import annotations

import json

from pydantic import BaseModel

ENTRY = "src.main:app"

CONTRACT = """Workspace contract (the harness relies on exactly this):
1. Entry point: `src/main.py` defines the ASGI app at module level as `app = FastAPI(...)` (a plan
   may declare another "entry": "module:attr"). `src/__init__.py` exists (it may be empty). Imports
   inside the app are absolute from the workspace root (`from src.store import ...`).
2. `GET /health` answers 200 with JSON {"status": "ok"}.
3. Database: SQLite, at the path in the environment variable APP_DB_PATH, read when a connection
   is opened (default "app.db"); never a hard-coded path. Create the tables on first use.
4. Tests: pytest files `tests/test_*.py`, run from the workspace root. A test gets a client with
   `monkeypatch.setenv("APP_DB_PATH", str(tmp_path / "app.db"))`, then `from src.main import app`
   and `fastapi.testclient.TestClient(app)`. No network, no running server. The workspace is
   read-only while tests and the app run: tests write only under `tmp_path`, never the workspace.
5. Every test carries `@pytest.mark.req("REQ-00N")` (one or more ids of the requirements it
   proves). The harness's pytest plugin registers the `req` marker: do not register it. A test
   must assert on real behaviour (status codes, bodies, stored data); a test that asserts nothing
   or only a constant does not count as evidence.
6. `requirements.txt` lists the packages the app needs; installed and usable are fastapi,
   uvicorn, httpx, pydantic and pytest (plus the standard library). Nothing else is installed.
7. Write only the task's allowed files, as relative POSIX paths with their full contents."""

from harness.acceptance.convention import API_CONVENTION  # noqa: E402 - the contract's last part

CONTRACT = CONTRACT + "\n8. " + API_CONVENTION

PROBES = """Runtime probes: the harness starts the app (uvicorn, fresh empty database) and sends the plan's
"probes" in order; each is {"requirement": "REQ-00N", "name": "...", "method": "GET|POST|PUT|PATCH|
DELETE", "path": "/...", "body": {...} or null, "expect_status": 201, "capture": {"note_id": "id"}}.
"{note_id}" in a later path or body value is replaced by the captured value. Redirects are not
followed: a route that redirects declares its status (e.g. 307) and may add "expect_location":
"https://..." (the Location header it must send). Declare at least one probe per requirement the
running app can show, using the app's own routes."""

CAPABILITIES = {
    "health": "the app answers a health check",
    "create": "records of an entity can be created",
    "list": "records of an entity can be listed",
    "complete": "a record can be marked done/completed",
    "crud": "records can be created, read, updated and deleted",
    "relation": "records belong to a parent record (foreign key)",
    "auth": "users register and log in; protected routes need a token",
    "dashboard": "aggregated counts or summaries are shown",
    "pages": "server-rendered HTML pages",
    "feature": "a cross-cutting feature such as search, filters, sorting or export",
    "workflow": "records move through ordered states",
    "unsupported": "the harness cannot build this; it stays in the spec and fails honestly",
    "other": "anything else that a test can check",
}


def capability_text() -> str:
    return "Capability values: " + "; ".join(f"{k} = {v}" for k, v in CAPABILITIES.items()) + "."


def schema_text(schema: type[BaseModel]) -> str:
    """The JSON schema of `schema`, for the message text (servers may ignore response_format)."""
    return (f"Answer with one JSON object matching this JSON schema ({schema.__name__}):\n"
            + json.dumps(schema.model_json_schema(), separators=(",", ":")))
