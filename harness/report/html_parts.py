"""Small HTML building blocks: escaping, tables, status badges (pure, stdlib only)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from pytest_harness.report_html import wrap_path

CSS = """
body{font-family:system-ui,-apple-system,sans-serif;margin:0 auto;max-width:1200px;padding:1.5em;color:#1d1d1f}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;width:100%;margin:.6em 0;font-size:.92em}
th,td{border:1px solid #d5d5d5;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f2f2f4}code{font-size:.9em;overflow-wrap:break-word}
.badge{display:inline-block;padding:.05em .5em;border-radius:.6em;font-weight:600;font-size:.85em}
.ok{background:#d9f2dd;color:#175c25}.bad{background:#fadcdc;color:#8a1c1c}
.warn{background:#fff1cc;color:#6b4e00}.info{background:#e6ecf5;color:#203a63}
.muted{color:#777}ul.compact{margin:0;padding-left:1.1em}details{margin:.4em 0}
summary{cursor:pointer}pre{background:#f7f7f7;padding:.5em;overflow-x:auto;white-space:pre-wrap}
.failbox{border:2px solid #c62828;background:#fdecea;border-radius:.4em;padding:.2em 1em;margin:.6em 0}
.failbox h2{border:0;margin:.4em 0 .2em;color:#8a1c1c}
"""
_OK = {"PASS", "passed", "verified", "COMPLETED", "ok", "true"}   # "mapped" is a plan, not a result: neutral
_BAD = {"FAIL", "failed", "failing", "error", "timeout", "FAILED", "TIMED_OUT", "ESCALATE", "false", "not_built"}
_WARN = {"weak", "not_run", "skipped", "xfailed", "xpassed", "uncovered", "BLOCKED", "stale"}


def esc(value: object) -> str:
    """Escaped text; None shows as an em dash."""
    return "—" if value is None else escape(str(value))


def badge(status: object) -> str:
    """A coloured status label that keeps the status text."""
    text = str(status)
    kind = "ok" if text in _OK else "bad" if text in _BAD else "warn" if text in _WARN else "info"
    return f'<span class="badge {kind}" data-status="{esc(text)}">{esc(text)}</span>'


def path_code(value: object) -> str:
    """A code span of a path or node id that wraps after `/`, `::` and `.`, never mid-word."""
    return "—" if value is None else f"<code>{wrap_path(str(value))}</code>"


def code_list(items: Iterable[object]) -> str:
    """A compact bullet list of code spans, or a dash when empty."""
    items = list(items)
    if not items:
        return '<span class="muted">—</span>'
    return '<ul class="compact">' + "".join(f"<li>{path_code(i)}</li>" for i in items) + "</ul>"


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, row_ids: Sequence[str] | None = None,
          css: str = "") -> str:
    """An HTML table; cells are already-rendered HTML."""
    rows = list(rows)
    if not rows:
        return '<p class="muted">nothing recorded</p>'
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = []
    for n, row in enumerate(rows):
        rid = f' id="{esc(row_ids[n])}"' if row_ids else ""
        body.append(f"<tr{rid}>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    cls = f' class="{css}"' if css else ""
    return f"<table{cls}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def figure(value: object) -> str:
    """A mutation/coverage figure of any shape (number, dict of numbers, text) as short text."""
    if value is None:
        return "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in sorted(value.items()) if not isinstance(v, (dict, list)))
    return str(value)


def duration(ms: object) -> str:
    """Milliseconds as "840 ms" / "3.2 s"; a dash when unknown."""
    if not isinstance(ms, (int, float)):
        return "—"
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"
