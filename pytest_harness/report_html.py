"""The requirement report as one self-contained HTML page (no network, no external assets).

First screen: the verdict and what failed the gate, then one count card per status. Below, a
status filter and a search box (a small inline script; the page reads without it) over one folded
entry per requirement, ordered failures first: failing, untrusted, uncovered, not_run, weak,
verified. An entry opens to its linked tests with their outcomes and failure text, the weak
reasons, the implementation files and, when `--harness-mutate` ran, the requirement's kill ratio and
surviving mutants with their diffs (report_mutation.py, also a folded block under the verdict). Paths and node ids may wrap after `/`, `::` and `.`, never
mid-word. The filter can be preset from the address: `report.html#status=failing&q=login`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape

from pytest_harness import gate, report_mutation

ORDER = ("failing", "untrusted", "uncovered", "not_run", "weak", "verified")
LABELS = {"failing": "failing", "untrusted": "untrusted", "uncovered": "no test (not built)",
          "not_run": "not run", "weak": "weak", "verified": "verified"}
CSS = """*{box-sizing:border-box}body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;padding:1em;max-width:70em;color:#1d1d1f}
h1{font-size:1.4em;margin:.2em 0}.verdict{font-weight:600;padding:.5em .8em;border-radius:6px;background:#e7f6ea}
.verdict.failed{background:#fde8e8}.reasons{margin:.4em 0 1em;padding-left:1.2em;color:#8a1c1c}
.cards{display:flex;flex-wrap:wrap;gap:.5em;margin:1em 0}.card{flex:1 1 7em;border:1px solid #ccc;border-radius:8px;
padding:.4em .7em;background:#fff;cursor:pointer;text-align:left;font:inherit}.card b{display:block;font-size:1.5em}
.card[aria-pressed=true]{outline:3px solid #3b6fd8}.controls{display:flex;flex-wrap:wrap;gap:.5em;margin:.5em 0}
.controls input,.controls select{font:inherit;padding:.3em .5em;flex:1 1 12em}
details.req{border:1px solid #ddd;border-left-width:6px;border-radius:6px;margin:.4em 0;background:#fff}
details.req>summary{cursor:pointer;padding:.45em .7em;display:flex;flex-wrap:wrap;gap:.2em .8em;align-items:baseline}
.rid{font-weight:700}.badge{font-size:.8em;padding:.05em .5em;border-radius:9px;background:#eee}.why{color:#555;flex-basis:100%}
.body{padding:.2em .9em .8em}code,.path{font-family:ui-monospace,monospace;font-size:.88em;overflow-wrap:normal;word-break:normal}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.5em;font-size:.8em;max-height:18em;overflow:auto}
.req.failing,.req.untrusted,.card.failing,.card.untrusted{border-left:6px solid #c62828}
.failing .badge,.untrusted .badge{background:#fbd5d5}.req.uncovered,.req.not_run,.card.uncovered,.card.not_run{border-left:6px solid #9e9e9e}
.req.weak,.card.weak{border-left:6px solid #e0a800}.weak .badge{background:#fff0c2}
.req.verified,.card.verified{border-left:6px solid #2e7d32}.verified .badge{background:#d7f0da}.empty{color:#777}[hidden]{display:none!important}"""
SCRIPT = """(function(){var cards=document.querySelectorAll('.card'),reqs=document.querySelectorAll('details.req'),
sel=document.getElementById('status'),q=document.getElementById('search'),shown=document.getElementById('shown');
function apply(){var s=sel.value,t=q.value.trim().toLowerCase(),n=0;reqs.forEach(function(r){
var ok=(s==='all'||r.dataset.status===s)&&(!t||r.dataset.text.indexOf(t)>=0);r.hidden=!ok;if(ok)n++;});
cards.forEach(function(c){c.setAttribute('aria-pressed',String(c.dataset.status===s));});
shown.textContent=n+' of '+reqs.length+' shown';}
cards.forEach(function(c){c.addEventListener('click',function(){sel.value=sel.value===c.dataset.status?'all':c.dataset.status;apply();});});
sel.addEventListener('change',apply);q.addEventListener('input',apply);
var h=new URLSearchParams(location.hash.slice(1));if(h.get('status'))sel.value=h.get('status');if(h.get('q'))q.value=h.get('q');
document.body.classList.add('scripted');apply();})();"""
_BREAK = re.compile(r"(::|/|\.)")


def wrap_path(text: str) -> str:
    """Escaped text with a wrap opportunity after each `/`, `::` and `.` (never mid-word)."""
    return "".join(escape(part) + ("<wbr>" if _BREAK.fullmatch(part) else "") for part in _BREAK.split(text) if part)


def _test_item(nodeid: str, entry: Mapping) -> str:
    outcome = entry.get("outcome", "not_run")
    carried = f", carried from {escape(str(entry['carried_from']))}" if entry.get("carried_from") else ""
    failure = f"<pre>{escape(entry['failure'])}</pre>" if entry.get("failure") else ""
    return f'<li><span class="path">{wrap_path(nodeid)}</span> <em>{escape(outcome)}{carried}</em>{failure}</li>'


def _entry(rid: str, req: Mapping, tests: Mapping, stale: Mapping, document: Mapping) -> str:
    status = req["status"]
    reason = gate.requirement_reason(req, tests)
    if rid in stale:
        reason = (reason + "; " if reason else "") + "stale since the baseline: " + ", ".join(stale[rid])
    title = req.get("title") or ""
    linked = "".join(_test_item(n, tests.get(n, {})) for n in req.get("tests", [])) or '<li class="empty">no test is marked with this id</li>'
    files = "".join(f'<li class="path">{wrap_path(f)}</li>' for f in req.get("files") or [])
    mutation, mutation_text = report_mutation.requirement_section(document, rid)
    text = " ".join([rid, title, status, reason, *req.get("tests", []), *(req.get("files") or []), mutation_text]).lower()
    return (f'<details class="req {escape(status)}" id="req-{escape(rid)}" data-status="{escape(status)}" '
            f'data-text="{escape(text)}"><summary><span class="rid">{escape(rid)}</span>'
            f'<span class="title">{escape(title)}</span><span class="badge">{escape(LABELS.get(status, status))}</span>'
            + (f'<span class="why">{escape(reason)}</span>' if reason else "")
            + f'</summary><div class="body"><h3>Tests</h3><ul>{linked}</ul>'
            + (f"<h3>Implementation files</h3><ul>{files}</ul>" if files else "") + mutation + "</div></details>")


def _rank(item: tuple[str, Mapping]) -> tuple[int, str]:
    status = item[1]["status"]
    return (ORDER.index(status) if status in ORDER else -1, item[0])


def render_html(document: Mapping) -> str:
    """The page (see module docstring)."""
    tests = document.get("tests", {})
    reqs = sorted(document["requirements"].items(), key=_rank)
    stale = (document.get("baseline") or {}).get("stale") or {}
    counts = {status: sum(1 for _, r in reqs if r["status"] == status) for status in ORDER}
    cards = "".join(f'<button class="card {s}" type="button" data-status="{s}" aria-pressed="false"><b>{n}</b>'
                    f"{escape(LABELS[s])}</button>" for s, n in counts.items() if n or s in ("verified", "failing"))
    options = "".join(f'<option value="{s}">{escape(LABELS[s])} ({counts[s]})</option>' for s in ORDER)
    passed = document.get("gate", {}).get("passed", False)
    reasons = "".join(f"<li>{escape(r)}</li>" for r in gate.other_reasons(document))
    session = document.get("session", {})
    entries = "".join(_entry(rid, req, tests, stale, document) for rid, req in reqs) or '<p class="empty">no requirements</p>'
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
        f"<title>Requirement evidence</title><style>{CSS}{report_mutation.CSS if document.get('mutation') else ''}"
        "</style></head><body>"
        f"<h1>Requirement evidence</h1><p class=\"verdict{'' if passed else ' failed'}\">"
        f"{escape(gate.verdict_line(document))}; gate {'passed' if passed else 'failed'}</p>"
        + (f'<ul class="reasons">{reasons}</ul>' if reasons else "")
        + f"<p>pytest exit status of the tests themselves {escape(str(session.get('exitstatus')))} "
        "(the gate above also judges requirements and the mutation audit), "
        f"{escape(str(session.get('collected')))} tests collected</p>" + report_mutation.summary_block(document)
        + f'<div class="cards">{cards}</div><div class="controls"><select id="status" aria-label="status">'
        f'<option value="all">all statuses ({len(reqs)})</option>{options}</select>'
        '<input id="search" type="search" placeholder="search ids, titles, tests, files" aria-label="search">'
        f'<span id="shown">{len(reqs)} of {len(reqs)} shown</span></div>'
        f'<main id="reqs">{entries}</main><script>{SCRIPT}</script></body></html>\n')
