"""Assemble the report page and write it where the run layout says (report.html)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from harness.report import sections
from harness.report.data import collect
from harness.report.html_parts import CSS, esc
from harness.state.store import RunStore
from harness.utils.fileio import atomic_write_text

NAV = (("coverage", "Request coverage"), ("matrix", "Matrix"), ("evidence", "Evidence"),
       ("timeline", "Timeline"), ("runtime", "Runtime"), ("escalations", "Escalations"))


def render_page(data: Mapping) -> str:
    """The whole page as one string: inline CSS, no scripts, no external resources."""
    nav = " · ".join(f'<a href="#{anchor}">{label}</a>' for anchor, label in NAV)
    body = "".join(part(data) for part in (
        sections.header, sections.request_coverage, sections.matrix, sections.requirement_evidence,
        sections.task_timeline, sections.runtime_checks, sections.escalations))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            # every value is escaped; the policy is a second wall: no script, no resource loads
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "img-src data:\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>Run {esc(data['run']['id'])} — App-Builder Harness report</title><style>{CSS}</style></head>"
            f"<body><nav>{nav}</nav>{body}</body></html>\n")


def write_report(store: RunStore, run_id: str) -> Path:
    """Collect the run's data, render the page and write it atomically; returns its path."""
    text = render_page(collect(store, run_id))
    path = store.html_report(run_id)
    atomic_write_text(path, text)
    return path
