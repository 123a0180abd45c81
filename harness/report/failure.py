"""Why a failed run failed, at the top of its report (#52: the reason was below the fold, under a
green "mapped"). One box right under the run's title: the run's error, the tasks that failed or
were escalated (with the escalation's reason), the requirements that did not pass (with the first
thing missing), a failed runtime check — the first few of each, the rest below in their sections."""

from __future__ import annotations

from collections.abc import Mapping

from harness.report.html_parts import esc

SHOWN = 8          # reasons listed in the box; the sections below have all of them
_TASK_FAILED = {"FAILED", "ESCALATE", "TIMED_OUT", "BLOCKED", "FAIL"}


def _requirement_reasons(data: Mapping) -> list[str]:
    matrix = data.get("matrix") or {}
    reports = data.get("requirement_reports") or {}
    out = []
    for row in matrix.get("requirements") or []:
        if not isinstance(row, Mapping) or row.get("status") == "PASS":
            continue
        rep = reports.get(row.get("id")) if isinstance(reports.get(row.get("id")), Mapping) else {}
        missing = rep.get("missing") or row.get("missing") or []
        first = missing[0] if isinstance(missing, list) and missing else "no reason recorded"
        out.append(f"{row.get('id')} {row.get('status')}: {first}")
    return out


def _task_reasons(data: Mapping) -> list[str]:
    escalated = {}
    for item in data.get("failures") or []:
        rep = item.get("report") if isinstance(item, Mapping) else None
        if isinstance(rep, Mapping) and rep.get("task_id"):
            escalated[rep["task_id"]] = rep.get("reason") or rep.get("decision") or "escalated"
    out = [f"{task} {status}" + (f": {escalated[task]}" if task in escalated else "")
           for task, status in sorted((data.get("statuses") or {}).items()) if status in _TASK_FAILED]
    shown = {line.split(" ", 1)[0] for line in out}
    return out + [f"{task} escalated: {why}" for task, why in sorted(escalated.items()) if task not in shown]


def _runtime_reason(data: Mapping) -> list[str]:
    rt = data.get("runtime")
    if not isinstance(rt, Mapping) or rt.get("status") in (None, "PASS", "ok"):
        return []
    bad = [c for c in rt.get("checks") or [] if isinstance(c, Mapping) and not c.get("ok")]
    first = f": {bad[0].get('name')} — {bad[0].get('detail', '')}" if bad else ""
    return [f"runtime check {rt.get('status')}{first}"]


def reasons(data: Mapping) -> list[str]:
    """Why the run failed, most telling first; [] for a run that did not fail."""
    run = data["run"]
    if run.get("status") != "FAIL":
        return []
    out = [f"error: {run['error']}"] if run.get("error") else []
    out += _task_reasons(data) + _requirement_reasons(data) + _runtime_reason(data)
    return out or ["the run ended FAIL without a recorded reason: see the timeline and run stages below"]


def failure_box(data: Mapping) -> str:
    """The box under the title of a failed run ("" otherwise)."""
    found = reasons(data)
    if not found:
        return ""
    items = "".join(f"<li>{esc(line)}</li>" for line in found[:SHOWN])
    more = f'<p class="muted">… and {len(found) - SHOWN} more below</p>' if len(found) > SHOWN else ""
    return (f'<section id="why-failed" class="failbox"><h2>Why this run failed</h2><ul>{items}</ul>{more}'
            "</section>")
