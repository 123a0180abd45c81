"""#47: the black-box checks, derived from the spec alone (harness/acceptance), judged per
requirement (legs.py), and run over real HTTP against a small hand-written app that gets one
behaviour wrong: the check named after that behaviour fails, the others pass."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.acceptance import leg, leg_line, run_acceptance
from harness.acceptance.derive import derive
from harness.models.results import AcceptanceCheck, RuntimeResult
from harness.models.spec import AppSpec
from harness.offline.spec_file import load_spec_file

ROOT = Path(__file__).resolve().parent.parent


def _names(spec: AppSpec) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in derive(spec):
        out.setdefault(c.requirement, []).append(c.name)
    return out


def test_todo_spec_derives_a_check_per_requirement_and_complete_reads_back():
    spec = AppSpec.model_validate_json((ROOT / "examples" / "todo_spec.json").read_text())
    names = _names(spec)
    assert names["REQ-001"] == ["create a todo with every field and read it back", "todo.title refuses a wrong value",
                                "a todo without title is refused"]
    assert names["REQ-003"] == ["complete a todo and read it back", "complete an unknown todo → 404",
                                "a page's complete form completes a todo"]
    assert "GET /health answers ok" in names["REQ-004"]


def test_club_bookings_every_requirement_has_spec_derived_checks():
    spec = load_spec_file(ROOT / "examples" / "club_bookings.toml")
    names = _names(spec)
    assert [r.id for r in spec.requirements if r.id not in names] == []
    assert "no double booking on bookings" in names["REQ-011"]
    assert "booking refuses a move the workflow does not allow" in names["REQ-010"]
    assert "another account cannot see or change a payment" in names["REQ-001"]
    assert "a duplicate member.email is refused" in names["REQ-002"]


def _runtime(*checks: AcceptanceCheck) -> RuntimeResult:
    return RuntimeResult(status="PASS", acceptance=list(checks))


def test_a_requirement_without_any_black_box_check_fails_its_leg():
    found = leg(_runtime(AcceptanceCheck(requirement="REQ-002", name="x", ok=True)), "REQ-001")
    assert found.status == "FAIL"
    assert found.missing("REQ-001") == ["black-box: no acceptance check for REQ-001"]


def test_a_failed_check_is_a_missing_line_and_probes_only_say_so():
    runtime = _runtime(
        AcceptanceCheck(requirement="REQ-001", name="spec-derived checks", ok=True, source="n/a", detail="no /api/notes"),
        AcceptanceCheck(requirement="REQ-001", name="probe: create", ok=True, source="probe"),
        AcceptanceCheck(requirement="REQ-002", name="search on notes", ok=False, detail="?q=X returned [1, 2]\n  GET …"))
    one, two = leg(runtime, "REQ-001"), leg(runtime, "REQ-002")
    assert one.status == "PASS" and leg_line(one) == "Black-box: YES (1/1 checks: model probes only)"
    assert two.missing("REQ-002") == ["black-box: acceptance check failed: search on notes — ?q=X returned [1, 2]"]
    assert leg(RuntimeResult(status="PASS"), "REQ-001") is None      # a run from before the leg existed


NOTES_APP = '''
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, ConfigDict

app = FastAPI()
ROWS: dict[int, dict] = {}

class NoteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    body: str | None = None

@app.get("/health")
def health():
    return {"status": "ok"}

@app.post("/api/notes", status_code=201)
def create(note: NoteIn):
    row = {"id": len(ROWS) + 1, **note.model_dump()}
    ROWS[row["id"]] = row
    return row

@app.get("/api/notes")
def listing(q: str | None = None):
    return list(ROWS.values())          # BUG: the search word is ignored

@app.get("/api/notes/{item_id}")
def read(item_id: int):
    if item_id not in ROWS:
        raise HTTPException(404)
    return ROWS[item_id]
'''


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def notes_app(tmp_path):
    (tmp_path / "notes_main.py").write_text(NOTES_APP)
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "notes_main:app", "--port", str(port)], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(5)


@pytest.mark.slow
def test_search_that_ignores_its_word_fails_exactly_the_search_check(notes_app):
    spec = AppSpec.model_validate({
        "title": "Notes", "data_model": [{"name": "note", "plural": "notes", "ident": "note", "fields": [
            {"name": "title", "ident": "title", "required": True}, {"name": "body", "ident": "body", "type": "text"}]}],
        "features": [{"kind": "search", "entity": "note"}],
        "requirements": [{"id": "REQ-001", "text": "Users can add notes", "capability": "create", "entity": "note"},
                         {"id": "REQ-002", "text": "Users can search notes", "capability": "feature", "entity": "note"}]})
    checks = run_acceptance(notes_app, spec, [], [])
    failed = [(c.requirement, c.name) for c in checks if not c.ok]
    assert failed == [("REQ-002", "search on notes")]
    detail = next(c.detail for c in checks if not c.ok)
    assert "only" in detail and "GET /api/notes?q=" in detail
    assert [c.name for c in checks if c.requirement == "REQ-001"] == [
        "create a note with every field and read it back", "note.title refuses a wrong value",
        "a note without title is refused", "note.body refuses a wrong value"]
