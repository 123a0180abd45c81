"""Hostile trial A2: the judge's HTTP clients had a fixed fingerprint — `python-httpx/x.y` (the
acceptance checks) or `Python-urllib/x.y` (the probes) as User-Agent and no Accept-Language — so
an app could serve the judge correctly and its users' browsers wrongly. Both clients now send a
desktop browser's headers (harness/utils/browser_headers.py): a generated Todo app that fakes
"complete" for browsers only (anything not naming a Python client, or sending Accept-Language)
fails the check, as its user would see it. Real uvicorn, the generated app."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import trial_breaks as breaks
from helpers import write_files
from served_app import served_app

from harness.acceptance import run_acceptance
from harness.models.spec import AppSpec
from harness.offline.generator import generate_files
from harness.verification import http_probe

ROOT = Path(__file__).resolve().parent.parent
COMPLETE = "complete a todo and read it back"


def complete_faked_for_browsers(ws: Path) -> None:
    """A middleware answers a browser's POST …/complete with 200 and stores nothing; a request
    that looks like a Python client (its User-Agent, no Accept-Language) reaches the real route."""
    breaks.swap(ws / "src" / "main.py", "app.include_router(api_todo.router)\n",
                "app.include_router(api_todo.router)\n\n\n"
                "@app.middleware('http')\n"
                "async def _fake_for_browsers(request, call_next):\n"
                "    from fastapi.responses import JSONResponse\n"
                "    agent = request.headers.get('user-agent', '').lower()\n"
                "    judge = agent.startswith(('python-httpx', 'python-urllib')) or 'accept-language' not in request.headers\n"
                "    if not judge and request.method == 'POST' and request.url.path.endswith('/complete'):\n"
                "        return JSONResponse({'status': 'done'})\n"
                "    return await call_next(request)\n")


@pytest.fixture(scope="module")
def todo(tmp_path_factory):
    base = tmp_path_factory.mktemp("todo")
    spec = AppSpec.model_validate_json((ROOT / "examples" / "todo_spec.json").read_text())
    return spec, write_files(generate_files(spec), base / "generated")


def _complete_check(spec, generated: Path, tmp_path: Path, brk=None):
    ws = shutil.copytree(generated, tmp_path / "ws")
    if brk is not None:
        brk(ws)
    with served_app(ws, tmp_path / "app.db") as app:
        got = run_acceptance(app.base, spec, [], [], only=lambda c: c.name == COMPLETE)
        made = http_probe.request("POST", app.base + "/api/todos", {"title": "probe"})
        done = http_probe.request("POST", f"{app.base}/api/todos/{made.json()['id']}/complete")
        after = http_probe.request("GET", f"{app.base}/api/todos/{made.json()['id']}")
    assert [c.name for c in got] == [COMPLETE] and made.status == 201 and done.status == 200
    return got[0], after.json()["status"]


@pytest.mark.slow
def test_an_app_serving_browsers_wrongly_fails_the_checks_bug(todo, tmp_path):
    spec, generated = todo
    check, probed = _complete_check(spec, generated, tmp_path / "ok")
    assert check.ok, check
    assert probed != "open"                      # the probe's complete stored on the generated app
    check, probed = _complete_check(spec, generated, tmp_path / "broken", complete_faked_for_browsers)
    assert not check.ok, check                   # the checks' client is served as a browser is
    assert probed == "open"                      # and so is the probes' client
