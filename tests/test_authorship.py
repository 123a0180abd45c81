"""#50: who wrote what, from the run's events — the summary, `builder status` and the report agree."""

from __future__ import annotations

from harness.report.sections import header
from harness.trace.authorship import authorship, authorship_lines

EVENTS = [
    {"stage": "llm", "status": "ok", "agent": "spec_agent"},
    {"stage": "spec", "status": "valid", "tool": "llm"},
    {"stage": "llm", "status": "ok", "agent": "planner"},
    {"stage": "plan", "status": "completed", "tool": "llm"},
    {"stage": "llm", "status": "ok", "task_id": "TASK-001"},
    {"stage": "build", "status": "completed", "task_id": "TASK-001", "tool": "llm"},
    {"stage": "llm", "status": "ok", "task_id": "TASK-002"},
    {"stage": "llm", "status": "ok", "task_id": "TASK-002"},
    {"stage": "build", "status": "fallback", "task_id": "TASK-002", "error": "LLM output unusable: <b>prose</b>"},
    {"stage": "build", "status": "completed", "task_id": "TASK-002", "tool": "generator"},
    {"stage": "repair", "status": "attempt 1/3", "task_id": "TASK-002", "tool": "llm"},
]


def test_per_task_writer_and_per_run_answers_used_or_fallen_back():
    a = authorship(EVENTS)
    assert a.writers == {"TASK-001": "model",
                         "TASK-002": "offline generator (fallback: the model's answer was unusable)"}
    assert (a.used, a.fell_back, a.model_calls) == (4, 1, 5)
    assert authorship_lines(a) == [
        "Written by:", "- TASK-001: model",
        "- TASK-002: offline generator (fallback: the model's answer was unusable); repaired by model",
        "Model answers: 4 used, 1 fell back to the offline path (5 model calls)"]


def test_an_offline_run_says_nothing_about_a_model():
    events = [{"stage": "build", "status": "completed", "task_id": "TASK-001", "tool": "generator"}]
    assert authorship_lines(authorship(events)) == []


def test_the_report_header_states_who_wrote_what():
    run = {"id": "r1", "status": "PASS", "request": "x", "created": "c", "updated": "u", "llm_calls": 5,
           "llm_tokens": 10, "error": ""}
    html = header({"run": run, "events": EVENTS})
    assert '<p id="written-by">Model answers: 4 used, 1 fell back to the offline path (5 model calls)</p>' in html
    assert "<li>TASK-002: offline generator (fallback: the model&#x27;s answer was unusable); repaired by model</li>" in html
