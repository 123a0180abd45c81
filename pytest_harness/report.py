"""`--harness-report=PATH.html|.md`: the requirement matrix as one self-contained page.

Pure renderers of the (annotated) evidence document, no network: Markdown here, the HTML page
(counts, status filter, search, folded details; an inline script) in report_html.py.
"""

from __future__ import annotations

from collections.abc import Mapping

from pytest_harness import gate
from pytest_harness.report_html import render_html


def render(document: Mapping, fmt: str) -> str:
    """The report as text in `fmt` ("html" or "md")."""
    return render_html(document) if fmt == "html" else render_markdown(document)


def format_for(path_suffix: str) -> str:
    """"html" for .html/.htm, "md" otherwise."""
    return "html" if path_suffix.lower() in (".html", ".htm") else "md"


def _test_lines(req: Mapping, tests: Mapping[str, Mapping]) -> list[str]:
    def label(entry: Mapping) -> str:
        carried = entry.get("carried_from")
        return entry.get("outcome", "not_run") + (f", carried from {carried}" if carried else "")
    return [f"{nodeid} ({label(tests.get(nodeid, {}))})" for nodeid in req["tests"]]


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(document: Mapping) -> str:
    """A Markdown page: verdict, matrix table, other gate reasons."""
    tests = document.get("tests", {})
    lines = ["# Requirement evidence", "", gate.verdict_line(document), "",
             "| id | title | status | tests | reason |", "|---|---|---|---|---|"]
    for rid, req in sorted(document["requirements"].items()):
        cells = [rid, req.get("title") or "", req["status"], "<br>".join(_test_lines(req, tests)) or "-",
                 gate.requirement_reason(req, tests)]
        lines.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    others = gate.other_reasons(document)
    if others:
        lines += ["", "## Other gate findings", ""] + [f"- {_md_cell(r)}" for r in others]
    return "\n".join(lines) + "\n"
