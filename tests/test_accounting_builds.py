"""#48 end to end: real `builder new` runs end BUILD FAILED naming the words nothing realises,
leave runs/<id>/app.toml (also at the spec stage) and rebuild the same requirements from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib

import pytest

from harness.offline.accounting.draft import built_shape
from harness.models.spec import AppSpec

pytestmark = pytest.mark.slow

READING = ("books with title, author, number of pages and a rating from 1 to 5; reading sessions with a date "
           "and pages read for a book; a page that shows how many pages I read per month")


def builder(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI")}
    env["HARNESS_RUNS_DIR"] = str(tmp_path / "runs")
    return subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path, env=env)


def run_spec(tmp_path, run_id: str) -> AppSpec:
    return AppSpec.model_validate_json((tmp_path / "runs" / run_id / "spec.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("run_id, request_text, named", [
    ("g2048", "Create a 2048 game", ['"2048"']),
    ("tennis", "A booking site for a tennis court", ['"booking"', '"tennis"']),
    ("boardgames", "I want to build a game tracker for all the boardgame game I do with my friends",
     ['"boardgame"', '"friends"']),
    # "pages read" and the monthly summary are read now (#51's period summaries); the sessions'
    # link to a book is not, so the run still fails naming it
    ("reading", READING, ['"book"']),
])
def test_bug_fresh_requests_end_build_failed_naming_the_unaccounted_words(tmp_path, run_id, request_text, named):
    done = builder(tmp_path, "new", request_text, "--run-id", run_id, "--no-audit")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "BUILD FAILED" in done.stdout and "BUILD COMPLETE" not in done.stdout
    assert all(word in done.stdout for word in named), done.stdout
    draft = tmp_path / "runs" / run_id / "app.toml"
    assert done.stdout.rstrip().endswith(f"edit {draft}, then: builder new --spec {draft}")
    status = builder(tmp_path, "status", run_id, "--json")
    doc = json.loads(status.stdout)
    assert doc["next_step"].endswith(f"then: builder new --spec {draft}")
    clauses = doc["clauses"]
    assert all(word.strip('"') in " ".join(w for c in clauses for w in c["unaccounted"]) for word in named)


def test_a_spec_stage_stop_leaves_state_clauses_and_a_draft(tmp_path):
    done = builder(tmp_path, "new", "hello", "--run-id", "hi")
    assert done.returncode == 1 and "BUILD FAILED at the spec stage" in done.stdout
    run = tmp_path / "runs" / "hi"
    assert json.loads((run / "state.json").read_text())["status"] == "FAIL"
    assert json.loads((run / "clauses.json").read_text())[0]["text"] == "hello"
    assert "# C-001 (context): hello" in (run / "app.toml").read_text()
    assert f"then: builder new --spec {run / 'app.toml'}" in done.stdout
    shown = builder(tmp_path, "status", "hi")
    assert 'C-001 context   "hello"' in shown.stdout and "app.toml" in shown.stdout


def test_the_seed_request_builds_complete_and_its_draft_rebuilds_the_same_requirements(tmp_path, seed_run):
    """The seed request's build (the session's shared seed_run, the same pipeline `builder new` runs;
    tests/test_cli.py drives `builder new "<request>"` itself) ends BUILD COMPLETE with every clause
    mapped and leaves runs/<id>/app.toml; a real `builder new --spec` of that draft, unedited, builds
    the same requirements. The draft is read from the shared run, never written."""
    store, ctx = seed_run
    assert ctx.state.status.value == "PASS" and ctx.state.review.overall_status == "PASS"
    spec = ctx.state.spec
    assert all(c.status == "mapped" and not c.unaccounted for c in spec.clauses)
    draft = store.run_dir(ctx.run_id) / "app.toml"
    tomllib.loads(draft.read_text(encoding="utf-8"))
    again = builder(tmp_path, "new", "--spec", str(draft), "--run-id", "again", "--no-audit")
    assert again.returncode == 0 and "BUILD COMPLETE" in again.stdout, again.stdout[-2000:]
    assert built_shape(run_spec(tmp_path, "again")) == built_shape(spec)
