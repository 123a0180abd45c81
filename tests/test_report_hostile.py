"""Issue 49: `builder report` escapes every value it writes. Hostile strings go through every field
of every artifact the report reads (state, spec, matrix, evidence, requirement reports, runtime,
escalation reports, events); headless Chromium loads the page: no script runs and no hostile tag
or event-handler attribute exists in its DOM — the payloads show as text."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from harness.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PAYLOAD = ("<script>document.documentElement.setAttribute('data-pwned','1')</script>"
           "<img src=x onerror=\"document.documentElement.setAttribute('data-pwned','1')\">"
           "\"'><svg onload=\"document.documentElement.setAttribute('data-pwned','1')\">")
DATA_KEYED = {"tests", "files", "lines", "requirements", "signatures", "snapshot"}
ACTIVE_TAGS = {"script", "img", "svg", "iframe", "object", "embed", "video", "audio", "link", "meta", "base", "form"}


def hostile(value, key: str = ""):
    """`value` with every leaf (string, number, bool, null) replaced by the payload, and the keys of
    maps keyed by data (test names, file names, requirement ids) too; the structure is kept."""
    if isinstance(value, dict):
        if key in DATA_KEYED:
            return {f"{PAYLOAD}{n}": hostile(v) for n, v in enumerate(value.values())}
        return {k: hostile(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [hostile(v) for v in value] or [PAYLOAD]
    return PAYLOAD


def _poison_run(store, run_id: str) -> None:
    from harness.models.run import RunState

    run = store.run_dir(run_id)
    for path in [*run.glob("*.json"), *run.glob("evidence/*.json"), *run.glob("requirements/*.json")]:
        if path.name == "state.json":
            continue
        path.write_text(json.dumps(hostile(json.loads(path.read_text()))))
    (run / "failures").mkdir(exist_ok=True)
    (run / "failures" / "TASK-001.json").write_text(json.dumps(hostile({
        "task_id": "TASK-001", "decision": "ESCALATE", "reason": "x", "next_step": "x", "repair_attempts_total": 2,
        "attempts": [{"attempt": 1}], "last_failure": {"failure_type": "x", "command": "x"}})))
    events = store.events_path(run_id)
    events.write_text("".join(json.dumps(hostile(json.loads(line))) + "\n"
                              for line in events.read_text().splitlines()))
    state = RunState.model_validate_json(store.state_path(run_id).read_text())
    state.user_request, state.error = PAYLOAD, PAYLOAD
    for req in state.spec.requirements:
        req.text = PAYLOAD
    for clause in state.spec.clauses:
        clause.text, clause.reason = PAYLOAD, PAYLOAD
    for task in state.plan.tasks:
        task.description = PAYLOAD
    store.state_path(run_id).write_text(state.model_dump_json())


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.active: list[str] = []
        self.root: dict = {}

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.root = dict(attrs)
        handlers = [name for name, _ in attrs if name.startswith("on")]
        if tag in ACTIVE_TAGS and not (tag == "meta" and not handlers) or handlers:
            self.active.append(f"<{tag} {attrs}>")


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_report_escapes_every_field_of_every_artifact_in_headless_chromium(fresh_todo_run, tmp_path, capsys):
    """Bug: matrix.json's counts (passed, total, coverage_pct) were written unescaped and Chromium
    ran the injected script."""
    store, run_id = fresh_todo_run
    _poison_run(store, run_id)
    assert main(["report", run_id, "--runs-dir", str(store.base)]) == 0, capsys.readouterr().err
    page = store.html_report(run_id)
    source = page.read_text()
    assert source.count("<script") == 0 and "<img" not in source and "<svg" not in source
    argv = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
            f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=2000", "--dump-dom", page.as_uri()]
    dom = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True).stdout
    tags = _Tags()
    tags.feed(dom)
    assert "data-pwned" not in tags.root   # no script ran
    assert tags.active == []
    assert dom.count("&lt;script&gt;") >= 10   # the payloads are there, as text


def test_report_sections_survive_values_of_the_wrong_type():
    """A hostile artifact may put text where a number or a table is expected: the page still renders."""
    from harness.report import sections, timeline

    assert timeline._stage_ms([{"stage": "build", "duration_ms": PAYLOAD}, {"stage": "build", "duration_ms": 5}],
                              "build") == 5
    html = sections._test_cell(["t"], {"tests": PAYLOAD})
    assert "<script" not in html and "not_run" in html
    data = {"requirements": [{"id": "R", "text": PAYLOAD}],
            "requirement_reports": {"R": {"status": PAYLOAD, "tests": {"t": PAYLOAD, "u": {"duration_s": PAYLOAD}}}}}
    assert "<script" not in sections.requirement_evidence(data)
