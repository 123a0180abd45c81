"""`--harness-report=PATH.html|.md`: the requirement matrix as one self-contained page.

Pure renderers of the (annotated) evidence document: no network, no scripts, inline CSS only.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from pytest_harness import gate

CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;
vertical-align:top}td:first-child{white-space:nowrap}th{background:#f3f3f3}.verified{background:#dff5e1}.failing{background:#fbe0e0}
.weak,.not_run{background:#fff4d6}.uncovered{background:#eee}code{font-size:90%}"""


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


def render_html(document: Mapping) -> str:
    """A standalone HTML page: verdict, matrix table, other gate reasons."""
    tests = document.get("tests", {})
    rows = []
    for rid, req in sorted(document["requirements"].items()):
        linked = "<br>".join(f"<code>{escape(t)}</code>" for t in _test_lines(req, tests)) or "-"
        rows.append(f'<tr class="{escape(req["status"])}" id="{escape(rid)}"><td>{escape(rid)}</td>'
                    f'<td>{escape(req.get("title") or "")}</td><td class="status">{escape(req["status"])}</td>'
                    f"<td>{linked}</td><td>{escape(gate.requirement_reason(req, tests))}</td></tr>")
    others = "".join(f"<li>{escape(r)}</li>" for r in gate.other_reasons(document))
    session = document.get("session", {})
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>Requirement evidence</title><style>{CSS}</style></head><body>"
        f"<h1>Requirement evidence</h1><p class=\"verdict\">{escape(gate.verdict_line(document))}</p>"
        f"<p>pytest exit status {escape(str(session.get('exitstatus')))}, "
        f"{escape(str(session.get('collected')))} tests collected</p>"
        "<table><thead><tr><th>id</th><th>title</th><th>status</th><th>tests</th><th>reason</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        + (f"<h2>Other gate findings</h2><ul>{others}</ul>" if others else "")
        + "</body></html>\n")
