"""A collective word standing as one item of a list of record types names a record type itself.

"keeps track of recipes, ingredients, and inventory": the user keeps inventory items. Elsewhere
"inventory" names the kind of app ("an inventory app for products") and so is never a record type
(lexicon.DOMAIN_AREAS); inside a list of records it was silently dropped, and the clause counted as
built. "inventory items" (lexicon.PHRASES) is the record type named outright.
"""

from __future__ import annotations

from harness.offline.spec.nouns import is_noun
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

# The collective word -> the record type it stands for as a list item.
COLLECTIVE_RECORDS = {"inventory": "inventory items"}
_SEP = word_set("list_collectives.sep")


def _listed_noun(toks: list[Tok], i: int, step: int) -> bool:
    """Whether a record noun of the same clause is listed next to token i in direction `step`
    (separators between them, at least one)."""
    j, seps = i + step, 0
    while 0 <= j < len(toks) and toks[j].clause == toks[i].clause and toks[j].w in _SEP:
        j, seps = j + step, seps + 1
    return seps > 0 and 0 <= j < len(toks) and toks[j].clause == toks[i].clause and is_noun(toks, j)


def mark_list_collectives(toks: list[Tok]) -> None:
    """Rename a collective word listed beside a record noun to the record type it stands for
    (unless a noun follows it: "inventory levels" is a compound other rules read)."""
    for i, t in enumerate(toks):
        record = COLLECTIVE_RECORDS.get(t.w)
        if record is None or t.used or is_noun(toks, i + 1) and toks[i + 1].clause == t.clause:
            continue
        if _listed_noun(toks, i, -1) or _listed_noun(toks, i, 1):
            t.w = record
