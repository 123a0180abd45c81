"""Words that ask for nothing by where they stand, marked before the clause accounting.

The accounting is strict: a content word no rule recognised makes its clause not built. These
rules recognise positions whose words only qualify what another rule already recognised, so a
clause whose asks are all understood is not failed by them:

- the domain word before an app head in a clause that introduces a list ("Create a budgeting app
  that supports the following user stories:") — the list items carry the asks;
- a column word right after a record that has that column ("a recipe title"), or before "of" the
  record ("the name of a recipe"; a record's name and title are its display column);
- the search's own words ("query", "keywords", "match") next to a search the app builds.

A referential modifier before a record ("edit an existing transaction"), the audience of "an app
for teachers to ..." and a UI behaviour verb in a clause about a UI element ("a button that
triggers a modal") are the rows of the "qualifier words" pass (patterns/framing.jsonl), run just
before this one. Every other unknown word still makes its clause not built.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

SEARCH_WORDS = word_set("tolerance.search_words")
_DISPLAY = word_set("tolerance.display")


def _word(toks: list[Tok], i: int) -> str:
    return toks[i].w if 0 <= i < len(toks) else ""


def _same_clause(toks: list[Tok], i: int, j: int) -> bool:
    return 0 <= j < len(toks) and toks[j].clause == toks[i].clause


def _free(t: Tok) -> bool:
    return not t.used and bool(t.w)


def _mark(t: Tok, role: str = "context") -> None:
    t.used, t.role = True, role


def mark_qualifiers(toks: list[Tok], p) -> None:
    """Mark the qualifying words of the positions above as context (or as the record's field)."""
    colons = {k for k, c in enumerate(p.clauses) if c.rstrip().endswith(":")}
    columns = {e: {it.words[-1] for it in p.fields.get(e, []) if it.words} for e in p.entities}
    for cols in columns.values():
        if cols & _DISPLAY:
            cols |= _DISPLAY
    search_clauses = {t.clause for t in toks if t.role.startswith("feature:search:")}
    for i, t in enumerate(toks):
        if not _free(t):
            continue
        if t.clause in colons and _word(toks, i + 1) in lx.APP_HEADS and _same_clause(toks, i, i + 1) \
                and (_word(toks, i - 1) in lx.DETERMINERS | lx.ADJECTIVES or toks[i - 1].role.startswith("entity:")):
            _mark(t)
        elif _same_clause(toks, i, i - 1) and toks[i - 1].role.startswith("entity:") \
                and t.w in columns.get(toks[i - 1].role[7:], ()):
            _mark(t, toks[i - 1].role.replace("entity:", "field:", 1))
        elif _word(toks, i + 1) == "of" and _record_after(toks, i + 2) and \
                t.w in columns.get(_record_after(toks, i + 2), ()):
            _mark(t, f"field:{_record_after(toks, i + 2)}")
        elif t.w in SEARCH_WORDS and (t.clause in search_clauses or t.clause - 1 in search_clauses):
            _mark(t)


def _record_after(toks: list[Tok], j: int) -> str:
    """The record named at j after any determiners ("of a recipe" -> "recipe"), or ""."""
    start = j
    while j < len(toks) and toks[j].w in lx.DETERMINERS and toks[j].clause == toks[start].clause:
        j += 1
    ok = j < len(toks) and toks[j].clause == toks[start].clause and toks[j].role.startswith("entity:")
    return toks[j].role[7:] if ok else ""
