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
from helpers import write_files
from served_app import served

API_ONLY = [
    "Build just a REST API to manage books with title and author.",
    "A library app for books with title and author. No frontend.",
    "A backend for books with a title and an author. No clientside required.",
]
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
