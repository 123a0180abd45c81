"""Field names listed in a clause about fields that no field rule read: "Include fields for unit
details like year, make, and model".

Words such as "year", "model" (meta words) and "make" (a verb) ask for nothing by themselves, so
a clause whose listed columns were not read came out mapped — a claim with no column behind it.
After a column word (fields, columns, details, information, attributes) and a list marker ("like",
"such as", "including", "e.g.", ":"), every word a rule did not consume is what the user asked to
store: it is marked `unexplained`, so the clause is not built with those words named.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok

UNEXPLAINED = "unexplained"
_COLUMN_WORDS = lx._words("field fields column columns detail details information info attribute attributes")
_MARKERS = lx._words("like including e.g eg :")
_SKIP = lx.FUNCTION | lx.DETERMINERS | lx._words(", / & etc and or")


def mark_listed_field_words(toks: list[Tok]) -> None:
    """Mark the unread words of a listed field set (see the module doc)."""
    for i, t in enumerate(toks):
        if t.w not in _MARKERS and not (t.w == "such" and _w(toks, i + 1) == "as"):
            continue
        start = i + (2 if t.w == "such" else 1)
        if not any(toks[k].w in _COLUMN_WORDS for k in range(max(0, i - 4), i) if toks[k].clause == t.clause):
            continue
        listed = []
        k = start
        while k < len(toks) and toks[k].clause == t.clause and toks[k].w not in (".", ";", "(", ")"):
            listed.append(k)
            k += 1
        if any(toks[x].used and toks[x].role.startswith("field:") for x in listed):
            continue   # a field rule read this list: what it left is its own business
        for x in listed:
            if not toks[x].used and toks[x].w[:1].isalpha() and toks[x].w not in _SKIP:
                toks[x].used, toks[x].role = True, UNEXPLAINED


def _w(toks: list[Tok], i: int) -> str:
    return toks[i].w if 0 <= i < len(toks) else ""
