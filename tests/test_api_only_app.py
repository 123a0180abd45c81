"""#48 defect 1: an API-only request ("no frontend", "no clientside required", "just a REST API")
gets a JSON API only — no HTML index, no login or record pages — and no check probes a page it did
not ask for. Before, such an app still served `/` (and `/login` with accounts) as HTML pages and
the checks probed `/`. Checked on the generated app served by real uvicorn."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from harness.acceptance.derive import derive
from harness.offline.generator import generate_files
from harness.offline.spec import parse_request
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from served_app import served

API_ONLY = [
    "Build just a REST API to manage books with title and author.",
    "A library app for books with title and author. No frontend.",
    "A backend for books with a title and an author. No clientside required.",
]
TOOLS_SPEC = """title = "Site diary"
html = false

[[entities]]
name = "site"
fields = [{ name = "name", required = true }]

[[entities]]
name = "entry"
plural = "entries"
parent = "site"
calendar = true
csv_import = { max_rows = 20 }
attachments = { types = ["application/pdf"], max_kb = 64 }
fields = [{ name = "title", required = true }, { name = "visit at", kind = "datetime", required = true }]
"""
WITH_LOGIN = ("Build just a REST API to manage books with title and author, with a dashboard. "
              "Users log in with a password.")


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.headers.get("content-type", ""), answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("content-type", ""), exc.read().decode()


@pytest.mark.parametrize("request_text", API_ONLY)
def test_an_api_only_request_asks_for_no_html_page_bug(request_text):
    spec = parse_request(request_text)
    assert spec.html is False and spec.pages == [] and spec.app_type == "api"
    assert not any("HTML" in r.text or "HTML" in r.acceptance for r in spec.requirements)
    assert not [c.name for c in derive(spec) if c.name.startswith("page ")]


def test_a_request_with_pages_keeps_its_html():
    spec = parse_request("A web app with pages for books with title and author.")
    assert spec.html is True and [p.route for p in spec.pages][:1] == ["/"]


def test_an_api_only_app_serves_no_html_page_bug(tmp_path):
    spec = parse_request(WITH_LOGIN)
    assert spec.auth and not spec.html and any(r.capability == "dashboard" for r in spec.requirements)
    files = generate_files(spec)
    assert "src/pages.py" not in files and "tests/test_pages.py" not in files
    workspace = write_files(files, tmp_path / "app")
    with served(workspace, tmp_path / "app.db") as base:
        for path in ("/", "/login", "/register", "/books", "/dashboard"):
            status, kind, _text = _get(base + path)
            assert "text/html" not in kind, (path, status, kind)
        status, kind, text = _get(base + "/")
        assert status == 200 and kind.startswith("application/json") and json.loads(text)["docs"] == "/docs"
        assert _get(base + "/login")[0] == _get(base + "/dashboard")[0] == 404
        assert _get(base + "/docs")[0] == 200   # the API's own documentation stays
        assert _get(base + "/openapi.json")[0] == 200
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=workspace,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]


def _send(url: str, method: str, body: bytes, kind: str) -> tuple[int, str, str]:
    asked = urllib.request.Request(url, data=body, method=method, headers={"Content-Type": kind})
    try:
        with urllib.request.urlopen(asked, timeout=10) as answer:
            return answer.status, answer.headers.get("content-type", ""), answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("content-type", ""), exc.read().decode()


def test_bug_api_only_app_still_builds_calendar_import_and_attachment_pages(tmp_path):
    spec_file = tmp_path / "diary.toml"
    spec_file.write_text(TOOLS_SPEC, encoding="utf-8")
    files = generate_files(load_spec_file(spec_file))
    assert "src/pages.py" not in files
    workspace = write_files(files, tmp_path / "app")
    with served(workspace, tmp_path / "app.db") as base:
        site = json.loads(_send(base + "/api/sites", "POST", b'{"name": "Dock"}', "application/json")[2])["id"]
        entry = {"title": "Survey", "visit_at": "2031-03-02T10:00:00", "site_id": site}
        made = _send(base + "/api/entries", "POST", json.dumps(entry).encode(), "application/json")
        assert made[0] == 201, made
        entry_id = json.loads(made[2])["id"]
        # the tools' JSON endpoints stay
        status, kind, text = _get(base + "/api/entries/calendar?from=2031-03-01&to=2031-03-31")
        assert status == 200 and [d["date"] for d in json.loads(text)["days"]] == ["2031-03-02"], text
        csv = b"title,visit at,site id\nWalk," + b"2031-03-05T09:00:00," + str(site).encode() + b"\n"
        status, _kind, text = _send(base + "/api/entries/import", "POST", csv, "text/csv")
        assert status == 201 and json.loads(text)["imported"] == 1, text
        status, _kind, text = _send(base + f"/api/entries/{entry_id}/attachments?filename=a.pdf", "POST",
                                    b"%PDF-1.4 plan", "application/pdf")
        assert status == 201, text
        assert _get(base + f"/api/entries/{entry_id}/attachments")[0] == 200
        # their HTML pages do not
        for path in ("/entries/calendar", "/entries/import", f"/entries/{entry_id}/attachments",
                     f"/entries/{entry_id}/attachments/1"):
            status, kind, _text = _get(base + path)
            assert status == 404 and "text/html" not in kind, (path, status, kind)
        assert _send(base + "/entries/import", "POST", b"csv=x", "application/x-www-form-urlencoded")[0] == 404
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=workspace,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]
