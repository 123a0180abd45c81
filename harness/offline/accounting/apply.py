"""Apply the word accounting to a finished spec: record it on every clause, and turn a clause
with unaccounted words into a not-built one with an `unsupported` requirement naming them."""

from __future__ import annotations

import re

from harness.offline.accounting.account import account_spec
from harness.offline.accounting.introduced import invented_stems
from harness.offline.accounting.record_introductions import records_not_introduced
from harness.offline.accounting.same_records import noted, same_record_notes
from harness.models.spec import AppSpec, Clause, Requirement


def req_text(clause: str, limit: int = 160) -> str:
    text = " ".join(clause.split()).rstrip(".!?,:; ")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def not_built_text(words: list[str], notes: dict[str, str] | None = None) -> str:
    """`not built: "pages read", "car" (may be the same record as vehicle)` (same_records.py)."""
    return "not built: " + ", ".join(f'"{w}"' + noted(w, notes or {}) for w in words)


def apply_accounting(spec: AppSpec) -> AppSpec:
    """`spec` with every clause's words accounted; clauses with unaccounted words are not built."""
    invented = invented_stems(spec, records_not_introduced(spec))   # records no word introduces
    accounts = account_spec(spec, invented)
    notes = {**same_record_notes(spec), **invented}
    for clause in spec.clauses:
        acc = accounts[clause.id]
        clause.words, clause.unaccounted = acc.words, acc.unaccounted
        if acc.context:
            _set_aside(spec, clause, acc.context)
            continue
        if clause.status == "not_built":   # the parser's own reasons first, then the words
            clause.reason = accounted_reason(clause.reason, acc.unaccounted, acc.words, notes)
            continue
        if not acc.unaccounted:
            continue
        note = not_built_text(acc.unaccounted, notes)
        clause.reason = note
        rid = _unsupported(spec, clause.text, note)
        clause.reqs = sorted({rid, *clause.reqs}) if clause.status == "mapped" else [rid]
        clause.status = "not_built"
    return spec


_PARSER_WORDS = re.compile(r'no offline rule understands (?:"[^"]*"(?:, )?)+; an LLM provider may build it')
NOTHING_READ = "no offline rule reads what this clause asks"


def accounted_reason(reason: str, unaccounted: list[str], words: dict[str, str],
                     notes: dict[str, str] | None = None) -> str:
    """A not-built clause's reason as the accounting has it (trial D7): the parser's own list of words
    it did not understand ("no offline rule understands "Tasks", "yet"") named words an element
    realises, so it gives way to the accounting's `not built: "…"` (exactly `unaccounted`). The
    parser's other reasons (a blocked feature, the entity cap, a stack) stay. When every word is
    realised yet the parser read no ask, the reason says so and names the records and fields the
    clause names, not its words: "no offline rule reads what this clause asks of field student.subject"."""
    m = _PARSER_WORDS.search(reason)
    parts = [p for p in (_PARSER_WORDS.sub("", reason).split("; ") if m else reason.split("; ")) if p.strip()]
    if unaccounted:
        parts.append(not_built_text(unaccounted, notes))
    elif m and not parts:   # the records and fields the clause names, in its order (at most three)
        elements = list(dict.fromkeys(label for label in words.values() if label.startswith(("entity ", "field "))))[:3]
        parts.append(NOTHING_READ + (f" of {', '.join(elements)}" if elements else "")
                     + "; an LLM provider may build it")
    return "; ".join(parts)


def _set_aside(spec: AppSpec, clause: Clause, why: str) -> None:
    """A clause that asks for nothing (context.py) is context, whatever the parser made of it: its
    own `unsupported` requirement leaves the spec (the ids after it close up), nothing else does."""
    own = [r for r in clause.reqs if (req := spec.requirement(r)) is not None and req.capability == "unsupported"
           and not any(clause.id != c.id and r in c.reqs for c in spec.clauses)]
    clause.status, clause.reqs, clause.reason = "context", [], f"set aside as context: {why}"
    if not own:
        return
    dropped = {spec.requirement(r).acceptance for r in own}
    texts = {spec.requirement(r).text.lower() for r in own} | {req_text(clause.text).lower()}
    spec.requirements = [r for r in spec.requirements if r.id not in own]
    spec.must_have = [m for m in spec.must_have if m.lower() not in texts
                      or any(r.text.lower() == m.lower() for r in spec.requirements)]
    spec.acceptance_criteria = [a for a in spec.acceptance_criteria if a not in dropped
                                or any(r.acceptance == a for r in spec.requirements)]
    renumber = {r.id: f"REQ-{n:03d}" for n, r in enumerate(spec.requirements, 1)}
    for r in spec.requirements:
        r.id = renumber[r.id]
    for c in spec.clauses:
        c.reqs = sorted(renumber.get(x, x) for x in c.reqs)


def _unsupported(spec: AppSpec, text: str, note: str) -> str:
    body = f"{req_text(text)} ({note})"
    same = next((r.id for r in spec.requirements if r.capability == "unsupported" and r.text == body), None)
    if same:
        return same
    rid = f"REQ-{len(spec.requirements) + 1:03d}"
    while spec.requirement(rid) is not None:
        rid = f"REQ-{int(rid[4:]) + 1:03d}"
    acceptance = f"{req_text(text)} works as requested, proven by a passing test"
    spec.requirements.append(Requirement(id=rid, text=body, acceptance=acceptance, capability="unsupported"))
    spec.acceptance_criteria.append(acceptance)
    return rid
