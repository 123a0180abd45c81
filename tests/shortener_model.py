"""A scripted 'model' that writes a URL shortener (#50): POST /api/links makes a short code, GET
/{code} answers 307 with the original URL in Location. Like notes_model.py it answers from what
each prompt shows and never imports the harness's generator.

Options: `probe_location` declares the Location the redirect probe expects; `wrong_status` makes
the first build redirect with 302 (its own test checks only that it redirects), so the running
app fails the plan's 307 probe while every test passes — a runtime failure for repair to fix.
"""

from __future__ import annotations

import json
import re

from fake_openai_server import RecordedRequest, Reply, answer

REQUEST = "Build a URL shortener: POST a long URL to get a short code; visiting /<code> redirects (307) to the long URL."
TARGET = "http://127.0.0.1:9/a/long/page?x=1"     # never fetched: the probe must not follow it
AGENTS = (("spec agent", "spec"), ("planner", "plan"), ("builder", "build"), ("repair agent", "repair"),
          ("review", "review"))

MAIN_PY = '''"""URL shortener: POST /api/links -> {"code", "url"}; GET /{code} -> 307 to the URL."""

import os
import secrets
import sqlite3

from fastapi import FastAPI, HTTPException
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, Field

app = FastAPI(title="URL shortener")
REDIRECT_STATUS = {STATUS}


def connect():
    conn = sqlite3.connect(os.environ.get("APP_DB_PATH", "app.db"))
    conn.execute("CREATE TABLE IF NOT EXISTS links (code TEXT PRIMARY KEY, url TEXT NOT NULL)")
    return conn


class LinkIn(BaseModel):
    url: str = Field(pattern=r"^https?://\\S+$")


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/api/links", status_code=201)
def shorten(link: LinkIn):
    code = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
    conn = connect()
    try:
        conn.execute("INSERT INTO links (code, url) VALUES (?, ?)", (code, link.url))
        conn.commit()
    finally:
        conn.close()
    return {"code": code, "url": link.url}


@app.get("/{code}")
def follow(code: str):
    conn = connect()
    try:
        row = conn.execute("SELECT url FROM links WHERE code = ?", (code,)).fetchone()
    finally:
        conn.close()
    if row is None:
        raise HTTPException(status_code=404, detail="no such link")
    return RedirectResponse(row[0], status_code=REDIRECT_STATUS)
'''

TEST_API_PY = '''import pytest
from fastapi.testclient import TestClient


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("APP_DB_PATH", str(tmp_path / "app.db"))
    from src.main import app

    with TestClient(app) as c:
        yield c


@pytest.mark.req("{R1}")
def test_shorten_returns_a_code(client):
    made = client.post("/api/links", json={"url": "https://example.org/page"})
    assert made.status_code == 201 and made.json()["url"] == "https://example.org/page"
    assert len(made.json()["code"]) >= 6
    assert client.post("/api/links", json={"url": "not a url"}).status_code == 422


@pytest.mark.req("{R2}")
def test_code_redirects_to_the_url(client):
    code = client.post("/api/links", json={"url": "https://example.org/x?y=1"}).json()["code"]
    went = client.get(f"/{code}", follow_redirects=False)
    assert {CHECK_STATUS}
    assert went.headers["location"] == "https://example.org/x?y=1"
    assert client.get("/nope", follow_redirects=False).status_code == 404
'''


class ShortenerModel:
    def __init__(self, probe_location: bool = True, wrong_status: bool = False):
        self.probe_location, self.wrong_status = probe_location, wrong_status
        self.calls: list[str] = []
        self.guessed: list[str] = []
        self.repair_prompts: list[str] = []

    def __call__(self, request: RecordedRequest) -> Reply:
        body = request.body if isinstance(request.body, dict) else {}
        messages = body.get("messages", [])
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        prompt = "\n".join(m["content"] for m in messages if m.get("role") != "system")
        agent = next((name for phrase, name in AGENTS if phrase in system.lower()), "unknown")
        self.calls.append(agent)
        text = getattr(self, agent, lambda p: "I only answer an app-building harness.")(prompt)
        return answer(text, usage={"prompt_tokens": len(prompt) // 4, "completion_tokens": len(text) // 4,
                                   "total_tokens": (len(prompt) + len(text)) // 4})

    def review(self, prompt: str) -> str:
        return "Codes are random; no collision retry.\nNo other concerns."

    def spec(self, prompt: str) -> str:
        feature = "feature" if "feature = " in prompt else "other"
        found = re.search(r"User request:\n(.*?)\n\n", prompt, re.S)
        return json.dumps({
            "app_type": "api", "title": "URL shortener",
            "stack": {"frontend": "none", "backend": "FastAPI", "db": "SQLite"},
            "data_model": [{"name": "link", "plural": "links", "ident": "link", "fields": [
                {"name": "url", "ident": "url", "type": "str", "required": True},
                {"name": "code", "ident": "code", "type": "str"}]}],
            "requirements": [
                {"id": "REQ-001", "text": "POST /api/links with a long URL returns a short code.",
                 "capability": "create", "entity": "link"},
                {"id": "REQ-002", "text": "Visiting /<code> redirects with 307 to the long URL.",
                 "capability": feature, "entity": "link"}],
            "clauses": [{"id": "C-001", "text": found.group(1).strip() if found else REQUEST, "status": "mapped",
                         "reqs": ["REQ-001", "REQ-002"]}],
            "notes": ["Short codes are random."]})

    def plan(self, prompt: str) -> str:
        redirect = {"requirement": "REQ-002", "name": "follow the short code", "method": "GET",
                    "path": "/{code}", "expect_status": 307}
        if self.probe_location:
            redirect["expect_location"] = TARGET
        return json.dumps({
            "tasks": [{"id": "TASK-001", "description": "Shortener API: POST /api/links, GET /{code} redirect (307)",
                       "depends_on": [], "requirements": ["REQ-001", "REQ-002"],
                       "files_touched": ["requirements.txt", "src/__init__.py", "src/main.py", "tests/test_api.py"],
                       "verification": ["python -m pytest -q tests/test_api.py"]}],
            "probes": [{"requirement": "REQ-001", "name": "shorten a URL", "method": "POST", "path": "/api/links",
                        "body": {"url": TARGET}, "expect_status": 201, "capture": {"code": "code"}}, redirect]})

    def build(self, prompt: str) -> str:
        status = 302 if self.wrong_status else 307
        check = ("went.status_code in (301, 302, 303, 307, 308)" if self.wrong_status
                 else "went.status_code == 307")
        return json.dumps(self._files(status, check))

    def repair(self, prompt: str) -> str:
        self.repair_prompts.append(prompt)
        if "expected 307" in prompt and "302" in prompt:
            return json.dumps({"src/main.py": self._files(307, "")["src/main.py"]})
        self.guessed.append("repair: cause not visible")
        return json.dumps({})

    @staticmethod
    def _files(status: int, check: str) -> dict[str, str]:
        return {"requirements.txt": "fastapi\nuvicorn\nhttpx\npytest\n",
                "src/__init__.py": '"""URL shortener."""\n',
                "src/main.py": MAIN_PY.replace("{STATUS}", str(status)),
                "tests/test_api.py": TEST_API_PY.replace("{CHECK_STATUS}", check or "went.status_code == 307")
                .replace("{R1}", "REQ-001").replace("{R2}", "REQ-002")}
