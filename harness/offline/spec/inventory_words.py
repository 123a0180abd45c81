"""An inventory the app keeps: "an app which allows a shopkeeper to track their shop's inventory".

An inventory (stock) is the records that carry a stock count. When the request has exactly one
record type with a stock or quantity field, "track / manage / keep <…> inventory" asks for that
record's CRUD, and the clause maps to it; with none (or several) the words stay as they were, and
a verb with no record type to act on keeps its clause not built. Word sets: records.toml
[inventory_words]."""

from __future__ import annotations

from harness.offline.spec.pass_helpers import use
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_COLLECTIONS = word_set("inventory_words.collections")
_VERBS = word_set("inventory_words.verbs")
_COUNT_FIELDS = word_set("inventory_words.count_fields")
_SKIP = word_set("inventory_words.skip")
_REACH = 4


def mark_inventory(toks: list[Tok], p) -> None:
    """Read "track … inventory" as a mention of the one record with a stock count."""
    stocked = [e for e in p.entities if any(set(it.words) & _COUNT_FIELDS for it in p.fields.get(e, []))]
    if len(stocked) != 1:
        return
    for i, t in enumerate(toks):
        if t.w not in _COLLECTIONS:
            continue
        j = i - 1
        while j >= 0 and i - j <= _REACH and toks[j].clause == t.clause and (toks[j].w in _SKIP or toks[j].possessive):
            j -= 1
        if j >= 0 and toks[j].clause == t.clause and toks[j].w in _VERBS and (not t.used or t.role == "context"):
            use(t, f"entity:{stocked[0]}")   # the verb then acts on that record
