"""Issue 18: `builder report <run_id>` — one self-contained page, checked in real headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from harness.cli import main
from harness.report import timeline
from harness.report.html_parts import badge, duration, figure
from harness.report.page import render_page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")


def _event(task, stage, status, ts, ms=None):
    return {"task_id": task, "stage": stage, "status": status, "timestamp": f"2026-01-01T10:00:{ts}+00:00",
            "duration_ms": ms, "error": ""}


def test_task_timeline_durations_per_task_and_stage():
    events = [_event("", "spec", "completed", "00.000", 30),
              _event("TASK-001", "build", "started", "01.000"), _event("TASK-001", "build", "completed", "01.100", 100),
              _event("TASK-001", "verify", "FAIL", "03.000", 1800), _event("TASK-001", "repair", "patched", "03.500", 20),
              _event("TASK-001", "verify", "PASS", "05.250", 1700),
              _event("TASK-002", "build", "started", "05.300"), _event("TASK-002", "verify", "PASS", "06.300", 900)]
    rows = timeline.task_timeline(events, {"TASK-001": "COMPLETED"})
    assert [(r["task"], r["status"], r["wall_ms"], r["build_ms"], r["verify_ms"], r["repair_ms"]) for r in rows] == [
        ("TASK-001", "COMPLETED", 4250, 100, 3500, 20), ("TASK-002", "PASS", 1000, 0, 900, 0)]
    assert timeline.total_ms(events) == 6300
    assert [s["stage"] for s in timeline.run_stages(events)] == ["spec"]
    assert timeline.task_timeline([_event("T", "build", "x", "bad")], {})[0]["wall_ms"] is None


@pytest.mark.parametrize("value, text", [
    (None, "—"), (0.8, "0.8"), ({"killed": 3, "survived": 1, "detail": {}}, "killed 3, survived 1"), ("n/a", "n/a")])
def test_figure_renders_any_shape(value, text):
    assert figure(value) == text


@pytest.mark.parametrize("status, kind", [("PASS", "ok"), ("FAIL", "bad"), ("weak", "warn"), ("RUNNING", "info")])
def test_badge_keeps_the_status_text(status, kind):
    assert badge(status) == f'<span class="badge {kind}" data-status="{status}">{status}</span>'


def test_duration():
    assert (duration(None), duration(840), duration(3210)) == ("—", "840 ms", "3.2 s")


def _data(**over):
    data = {"run": {"id": "r1", "status": "FAIL", "request": "a <todo> app", "created": "", "updated": "",
                    "error": "", "llm_calls": 0, "llm_tokens": 0},
            "clauses": [{"id": "C-001", "text": "add todos", "status": "mapped", "reqs": ["REQ-001"], "reason": ""},
                        {"id": "C-002", "text": "play chess", "status": "not_built", "reqs": [], "reason": "games"}],
            "requirements": [{"id": "REQ-001", "text": "add"}],
            "tasks": [], "statuses": {}, "repairs": {}, "events": [], "runtime": None, "failures": [],
            "matrix": {"requirements": [{"id": "REQ-001", "text": "add", "tasks": ["TASK-001"], "files": ["src/a.py"],
                                         "tests": ["t.py::a"], "status": "PASS", "mutation": {"killed": 4, "total": 5}}],
                       "passed": 1, "total": 1, "coverage_pct": 100.0, "problems": [], "stale_files": []},
            "evidence": {"tests": {"t.py::a": {"outcome": "passed"}},
                         "requirements": {"REQ-001": {"coverage": {"lines": "92%"}}}},
            "requirement_reports": {"REQ-001": None}}
    data.update(over)
    return data


def test_page_shows_clauses_figures_and_escapes_text():
    page = render_page(_data())
    assert "1 of 2 clauses mapped" in page and 'data-status="not_built"' in page
    assert "<th>mutation</th>" in page and "killed 4, total 5" in page
    assert "<th>coverage</th>" in page and "lines 92%" in page
    assert "a &lt;todo&gt; app" in page and "<todo>" not in page
    assert "<script" not in page and not re.search(r"(src|href)=\"(https?:)?//", page)


@pytest.mark.parametrize("tests, files, expected", [
    ({"a": {"outcome": "passed", "lines": {"src/x.py": [1, 2], "tests/t.py": [5]}},
      "b": {"outcome": "passed", "lines": {"src/x.py": [2, 3]}}}, ["src/x.py"], {"lines run": 3, "files": 1}),
    ({"a": {"outcome": "failed", "lines": {"src/x.py": [1]}}}, ["src/x.py"], None),
    ({"a": {"outcome": "passed"}}, ["src/x.py"], None),  # evidence without line data
])
def test_lines_run_per_requirement(tests, files, expected):
    from harness.report.sections import lines_run
    assert lines_run(list(tests), files, {"tests": tests}) == expected


def test_page_without_figures_has_no_empty_columns():
    data = _data(evidence={"tests": {}, "requirements": {}})
    data["matrix"]["requirements"][0].pop("mutation")
    page = render_page(data)
    assert "<th>mutation</th>" not in page and "<th>coverage</th>" not in page


class _Rows(HTMLParser):
    """Collects, per <tr id=...>, the data-status values found inside it."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self._current: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr":
            self._current = attrs.get("id")
            if self._current:
                self.rows[self._current] = []
        elif self._current and "data-status" in attrs:
            self.rows[self._current].append(attrs["data-status"])

    def handle_endtag(self, tag):
        if tag == "tr":
            self._current = None


def _chromium(tmp_path: Path, page: Path, *flags: str) -> subprocess.CompletedProcess:
    argv = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
            f"--user-data-dir={tmp_path / 'profile'}", *flags, page.as_uri()]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True)


@pytest.mark.slow
@needs_chromium
def test_report_renders_every_requirement_in_headless_chromium(looped_inject_run, tmp_path, capsys):
    """The page of a private copy of the shared escalated run (conftest.py: looped_inject_run, a real
    `builder inject ... --no-op-repair`: LOOP DETECTED, a FAIL review)."""
    from run_copies import copy_run

    assert looped_inject_run.code == 1
    run_id = looped_inject_run.run_id
    store = copy_run(looped_inject_run.store, run_id, tmp_path / "runs")
    assert main(["report", run_id, "--runs-dir", str(store.base)]) == 0
    page = store.html_report(run_id)
    assert capsys.readouterr().out.strip() == f"report: {page}"
    dom = _chromium(tmp_path, page, "--dump-dom").stdout
    rows = _Rows()
    rows.feed(dom)
    matrix = json.loads(store.artifact_path(run_id, "matrix").read_text())
    assert matrix["requirements"], "the run has requirements"
    for req in matrix["requirements"]:
        assert req["status"] in rows.rows[f"req-{req['id']}"][-1:], req["id"]  # the result cell, last
        assert f'id="evidence-{req["id"]}"' in dom
    assert any(r["status"] == "FAIL" for r in matrix["requirements"])
    assert 'id="escalation-TASK-' in dom and "LOOP DETECTED" in dom
    box = dom[dom.index('id="why-failed"'):dom.index("</section>", dom.index('id="why-failed"'))]
    assert dom.index('id="why-failed"') < dom.index('id="request"')   # the reason first (#52)
    assert any(f"{r['id']} FAIL" in box for r in matrix["requirements"] if r["status"] == "FAIL"), box
    assert "Runtime checks" in dom and "Task timeline" in dom
    shot = tmp_path / "report.png"
    _chromium(tmp_path, page, "--window-size=1280,2000", f"--screenshot={shot}")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_report_of_an_unknown_run_is_exit_4(tmp_path, capsys):
    assert main(["report", "no_such_run", "--runs-dir", str(tmp_path)]) == 4
    assert "no_such_run" in capsys.readouterr().err


@pytest.mark.parametrize("report, text", [
    ({"attempts": [{"attempt": 2}], "repair_attempts_total": 2}, "repair attempts: 2 in this run (1 recorded in this report)"),
    ({"attempts": [{"attempt": 1}, {"attempt": 2}], "repair_attempts_total": 2}, "repair attempts: 2"),
    ({"attempts": []}, "repair attempts: 0"),
])
def test_escalation_attempt_count_agrees_with_terminal_and_status(report, text):
    # bug: after a successful repair and a second inject, the terminal said "attempt 2/3", `status`
    # "repairs: 2" and the report page "attempts: 1" (only this escalation's attempts)
    from harness.report.sections import escalations
    html = escalations({"failures": [{"path": "failures/TASK-001.json", "report": {"task_id": "TASK-001", **report}}]})
    assert f"<p>{text}; last failure:" in html
