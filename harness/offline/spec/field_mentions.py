"""A record's fields named again where its records are shown: "a list of books along with their
authors and publication years", "future meetings, including ... the meeting date, location, and a
brief description". The fields were read where the record was described; a later clause that
lists them beside the record asks for what the generated list already shows, so those words are
the record's fields, not words no rule understood. Only a field of a record type the same clause
mentions counts.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok


def mark_field_mentions(toks: list[Tok], fields: dict) -> None:
    by_clause: dict[int, set[str]] = {}
    for t in toks:
        if t.role.startswith("entity:"):
            by_clause.setdefault(t.clause, set()).add(t.role[7:])
    for i, t in enumerate(toks):
        if t.used or not t.w.isalpha():
            continue
        for name in sorted(by_clause.get(t.clause, ())):
            span = _field_span(toks, i, fields.get(name, []))
            if span:
                for k in span:
                    toks[k].used, toks[k].role = True, f"field:{name}"
                break


def _field_span(toks: list[Tok], i: int, items) -> list[int]:
    """The token indexes from i that spell one of `items`' labels (last word in either number)."""
    for item in items:
        words = item.words
        if not words or i + len(words) > len(toks):
            continue
        run = toks[i:i + len(words)]
        if any(t.clause != toks[i].clause or t.used for t in run):
            continue
        if [t.w for t in run[:-1]] == words[:-1] and lx.singularize(run[-1].w) == lx.singularize(words[-1]):
            return list(range(i, i + len(words)))
    return []
