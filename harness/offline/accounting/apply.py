"""Apply the word accounting to a finished spec: record it on every clause, and turn a clause
with unaccounted words into a not-built one with an `unsupported` requirement naming them."""

from __future__ import annotations

import re

from harness.offline.accounting.account import account_spec
from harness.models.spec import AppSpec, Clause, Requirement


def req_text(clause: str, limit: int = 160) -> str:
    text = " ".join(clause.split()).rstrip(".!?,:; ")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def not_built_text(words: list[str]) -> str:
    return "not built: " + ", ".join(f'"{w}"' for w in words)


def apply_accounting(spec: AppSpec) -> AppSpec:
    """`spec` with every clause's words accounted; clauses with unaccounted words are not built."""
    accounts = account_spec(spec)
    for clause in spec.clauses:
        acc = accounts[clause.id]
        clause.words, clause.unaccounted = acc.words, acc.unaccounted
        clause.reason = built_words_named(clause.reason, clause.text, spec)
        if acc.context:
            _set_aside(spec, clause, acc.context)
            continue
        if not acc.unaccounted:
            continue
        note = not_built_text(acc.unaccounted)
        if clause.status == "not_built":   # the parser's own reason first, then the words
            clause.reason = f"{clause.reason}; {note}" if clause.reason else note
            continue
        clause.reason = note
        rid = _unsupported(spec, clause.text, note)
        clause.reqs = sorted({rid, *clause.reqs}) if clause.status == "mapped" else [rid]
        clause.status = "not_built"
    return spec


_NOT_UNDERSTOOD = re.compile(r'(no offline rule understands )((?:"[^"]*"(?:, )?)+)')


def built_words_named(reason: str, text: str, spec: AppSpec) -> str:
    """A not-built reason naming a word the spec uses, whole, for a record type or for a field of a
    record the clause names (or of the only record) says so: "subjects" (the spec uses the word for
    field student.subject) — built, but not what this clause asks of it."""
    from harness.offline.accounting.lexicon import tokens

    said = {w.lower() for w in tokens(text)}
    named = [e for e in spec.data_model if {e.name, e.plural} & said or len(spec.data_model) == 1]

    def where(word: str) -> str:
        w = word.lower()
        for e in spec.data_model:
            if w in (e.name, e.plural):
                return f"record {e.name}"
        hits = [f"field {e.name}.{f.name}" for e in named for f in e.fields if w in (f.name, f"{f.name}s")]
        return hits[0] if len(hits) == 1 else ""

    def annotate(m: re.Match) -> str:
        parts = [f'"{w}" (the spec uses the word for {where(w)})' if where(w) else f'"{w}"'
                 for w in re.findall(r'"([^"]*)"', m.group(2))]
        return m.group(1) + ", ".join(parts)

    return _NOT_UNDERSTOOD.sub(annotate, reason)


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
