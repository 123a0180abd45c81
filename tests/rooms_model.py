"""A scripted 'model' for a meeting-room booking app whose tests are hollow (#47): they call the
code and assert `x is not None`, and its "bookings of a day" listing returns every day's bookings.

The app follows the workspace contract and its API convention (/api/bookings, ?day_min=&day_max=,
an unknown query parameter refused with 422), so the harness's black-box checks apply; the hand-written files are never the generator's.
"""

from __future__ import annotations

import json

from fake_openai_server import RecordedRequest, Reply, answer

REQUEST = "Build a meeting room booking app: book a room for a day, list bookings, and list the bookings of one day."

SPEC = {
    "app_type": "api", "title": "Meeting rooms",
    "stack": {"frontend": "none", "backend": "FastAPI", "db": "SQLite"},
    "data_model": [{"name": "booking", "plural": "bookings", "ident": "booking", "fields": [
        {"name": "title", "ident": "title", "type": "str", "required": True},
        {"name": "room", "ident": "room", "type": "str", "required": True},
        {"name": "day", "ident": "day", "type": "date", "kind": "date", "required": True}]}],
    "features": [{"kind": "filter", "entity": "booking", "fields": ["day"]}],
    "requirements": [
        {"id": "REQ-001", "text": "Users can book a room for a day", "capability": "create", "entity": "booking"},
        {"id": "REQ-002", "text": "Users can list all bookings", "capability": "list", "entity": "booking"},
        {"id": "REQ-003", "text": "Users can filter the bookings of one day", "capability": "feature", "entity": "booking"},
        {"id": "REQ-004", "text": "The app answers GET /health", "capability": "health"}],
    "clauses": [{"id": "C-001", "text": REQUEST, "status": "mapped",
                 "reqs": ["REQ-001", "REQ-002", "REQ-003", "REQ-004"]}],
}

PLAN = {"tasks": [{
    "id": "TASK-001", "description": "Bookings API in SQLite with its tests",
    "depends_on": [], "requirements": ["REQ-001", "REQ-002", "REQ-003", "REQ-004"],
    "files_touched": ["requirements.txt", "src/__init__.py", "src/main.py", "tests/test_api.py"],
    "verification": ["python -m pytest -q tests/test_api.py"]}],
    "probes": [
        {"requirement": "REQ-001", "name": "book", "method": "POST", "path": "/api/bookings",
         "body": {"title": "Standup", "room": "Blue", "day": "2031-03-04"}, "expect_status": 201},
        {"requirement": "REQ-003", "name": "a day's bookings", "method": "GET",
         "path": "/api/bookings?day_min=2031-03-04&day_max=2031-03-04", "expect_status": 200},
        {"requirement": "REQ-004", "name": "health", "method": "GET", "path": "/health", "expect_status": 200}]}

MAIN_PY = '''"""Meeting-room bookings: POST/GET /api/bookings, GET /api/bookings/{id}, GET /health."""

import datetime
import os
import sqlite3

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

app = FastAPI(title="Meeting rooms")


class BookingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1)
    room: str = Field(min_length=1)
    day: datetime.date


def connect():
    conn = sqlite3.connect(os.environ.get("APP_DB_PATH", "app.db"))
    conn.row_factory = sqlite3.Row
    conn.execute("CREATE TABLE IF NOT EXISTS bookings (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                 "title TEXT NOT NULL, room TEXT NOT NULL, day TEXT NOT NULL)")
    return conn


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/api/bookings", status_code=201)
def create(booking: BookingIn):
    conn = connect()
    cur = conn.execute("INSERT INTO bookings (title, room, day) VALUES (?, ?, ?)",
                       (booking.title, booking.room, booking.day.isoformat()))
    conn.commit()
    return read(cur.lastrowid)


@app.get("/api/bookings/{booking_id}")
def read(booking_id: int):
    row = connect().execute("SELECT * FROM bookings WHERE id = ?", (booking_id,)).fetchone()
    if row is None:
        raise HTTPException(404, "booking not found")
    return dict(row)


@app.get("/api/bookings")
def listing(request: Request, day_min: datetime.date | None = None, day_max: datetime.date | None = None):
    unknown = sorted(set(request.query_params) - {"day_min", "day_max"})
    if unknown:   # the convention: a parameter the list does not take is refused, never ignored
        raise HTTPException(422, f"unknown query parameter: {', '.join(unknown)}")
    rows = [dict(r) for r in connect().execute("SELECT * FROM bookings ORDER BY id")]
    return [r for r in rows if {DAY_FILTER}]
'''

DAY_GOOD = ("(day_min is None or r['day'] >= day_min.isoformat()) "
            "and (day_max is None or r['day'] <= day_max.isoformat())")
DAY_BROKEN = "r['day'] is not None"      # every day's bookings

HOLLOW_TESTS = '''import pytest
from fastapi.testclient import TestClient


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("APP_DB_PATH", str(tmp_path / "app.db"))
    from src.main import app
    return TestClient(app)


@pytest.mark.req("REQ-001")
def test_book_a_room(client):
    made = client.post("/api/bookings", json={"title": "Standup", "room": "Blue", "day": "2031-03-04"}).json()
    assert made is not None
    assert client.get(f"/api/bookings/{made['id']}").json() is not None


@pytest.mark.req("REQ-002")
def test_list_bookings(client):
    client.post("/api/bookings", json={"title": "Standup", "room": "Blue", "day": "2031-03-04"})
    assert client.get("/api/bookings").json() is not None


@pytest.mark.req("REQ-003")
def test_bookings_of_a_day(client):
    client.post("/api/bookings", json={"title": "Standup", "room": "Blue", "day": "2031-03-04"})
    client.post("/api/bookings", json={"title": "Review", "room": "Red", "day": "2031-03-05"})
    day = client.get("/api/bookings", params={"day_min": "2031-03-04", "day_max": "2031-03-04"}).json()
    assert day is not None


@pytest.mark.req("REQ-004")
def test_health(client):
    assert client.get("/health").json() is not None
'''


class RoomsModel:
    def __init__(self, broken_day_listing: bool = True):
        self.broken = broken_day_listing
        self.calls: list[str] = []

    def __call__(self, request: RecordedRequest) -> Reply:
        body = request.body if isinstance(request.body, dict) else {}
        messages = body.get("messages", [])
        system = next((m["content"] for m in messages if m.get("role") == "system"), "").lower()
        agent = next((name for phrase, name in (("spec agent", "spec"), ("planner", "plan"), ("builder", "build"),
                                                ("repair agent", "repair"), ("review", "review")) if phrase in system),
                     "unknown")
        self.calls.append(agent)
        text = {"spec": lambda: json.dumps(SPEC), "plan": lambda: json.dumps(PLAN), "build": self.files,
                "review": lambda: "No concerns."}.get(agent, lambda: "{}")()
        return answer(text)

    def files(self) -> str:
        main = MAIN_PY.replace("{DAY_FILTER}", DAY_BROKEN if self.broken else DAY_GOOD)
        return json.dumps({"requirements.txt": "fastapi\nuvicorn\nhttpx\npytest\n", "src/__init__.py": "",
                           "src/main.py": main, "tests/test_api.py": HOLLOW_TESTS})
