"""The mutation audit's part of the HTML report (`--harness-mutate`, #52): shown only when it ran.

Under the verdict, one folded block: the bar, and per audited requirement its kill ratio (killed of
judged), invalid and not-run counts and whether it meets the bar; an audit that could not run says
why. In each requirement's own folded entry, the same figures and every surviving mutant with its
file, line, kind and diff (`-` the line as written, `+` the mutant's). Everything is escaped text
from the evidence document's `mutation` block (mutate.py); no script is needed to read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from pytest_harness.decoy_verdict import decoy_lines
from pytest_harness.mutation_verdict import judged, under_the_bar

CSS = """.mutation{border:1px solid #ddd;border-radius:6px;margin:.6em 0;background:#fff}
.mutation>summary{cursor:pointer;padding:.45em .7em;font-weight:600}.mutation table{border-collapse:collapse;margin:.3em .9em .8em}
.mutation td,.mutation th{padding:.15em .6em;text-align:left;border-bottom:1px solid #eee}
.under{color:#8a1c1c;font-weight:600}.meets{color:#2e7d32}.survivor{margin:.3em 0}.survivor pre{margin:.2em 0}"""


def _bar(block: Mapping) -> float:
    return float(block.get("bar") or 0.5)


def _figures(entry: Mapping, bar: float) -> tuple[str, str]:
    """(the figures as text, css class): `2/4 killed (50%); bar 50%: meets the bar`."""
    if entry.get("skipped"):
        return f"not audited ({entry['skipped']})", "empty"
    total = judged(entry)
    ratio = f"{entry.get('killed', 0) / total:.0%}" if total else "-"
    extra = "".join(f", {entry[k]} {k.replace('_', ' ')}" for k in ("invalid", "not_run") if entry.get(k))
    under = under_the_bar(entry)
    verdict = "below the bar" if under else ("meets the bar" if total else "nothing judged")
    return (f"{entry.get('killed', 0)}/{total} killed ({ratio}{extra}); bar {bar:.0%}: {verdict}",
            "under" if under else "meets")


def survivors(entry: Mapping) -> list[Mapping]:
    """The mutants the requirement's tests let survive (result `passed`), in the audit's order."""
    return [d for d in entry.get("details") or [] if d.get("result") == "passed"]


def summary_block(document: Mapping) -> str:
    """The folded block under the verdict; "" when the mutation audit did not run."""
    block = document.get("mutation")
    if not block:
        return ""
    bar = _bar(block)
    rows = []
    for rid, entry in (block.get("requirements") or {}).items():
        text, css = _figures(entry, bar)
        rows.append(f'<tr><td><a href="#req-{escape(rid)}">{escape(rid)}</a></td><td class="{css}">{escape(text)}</td>'
                    f"<td>{len(survivors(entry))} survived</td></tr>")
    under = sum(1 for e in (block.get("requirements") or {}).values() if under_the_bar(e))
    head = (f"Mutation audit: {len(rows)} requirement{'s' if len(rows) != 1 else ''}, {under} below the "
            f"{bar:.0%} bar")
    error = f'<p class="under">{escape(str(block["error"]))}</p>' if block.get("error") else ""
    table = f"<table><tr><th>id</th><th>killed of judged</th><th>survivors</th></tr>{''.join(rows)}</table>" if rows else ""
    return f'<details class="mutation" id="mutation"><summary>{escape(head)}</summary>{error}{table}</details>'


def requirement_section(document: Mapping, rid: str) -> tuple[str, str]:
    """(the requirement's mutation section for its folded entry, text for the search); ("", "")
    when the audit did not run or did not look at it."""
    block = document.get("mutation")
    entry = ((block or {}).get("requirements") or {}).get(rid)
    if not entry:
        return "", ""
    text, css = _figures(entry, _bar(block))
    items = []
    for d in survivors(entry):
        where = f"{d.get('file')}:{d.get('line')}"
        diff = f"<pre>{escape(d['diff'])}</pre>" if d.get("diff") else ""
        items.append(f'<li class="survivor"><span class="path">{escape(where)}</span> <em>{escape(str(d.get("kind")))}'
                     f"</em> {escape(str(d.get('description') or ''))}{diff}</li>")
    listed = f"<ul>{''.join(items)}</ul>" if items else ""
    decoyed = "".join(f'<p class="under">{escape(line)}</p>' for line in decoy_lines(entry))
    searched = " ".join([text, *(f"{d.get('file')}:{d.get('line')} {d.get('description')}" for d in survivors(entry))])
    return f'<h3>Mutation audit</h3><p class="{css}">{escape(text)}</p>{decoyed}{listed}', searched
