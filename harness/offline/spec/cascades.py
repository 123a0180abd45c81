"""Cascading deletes asked for in words: "with cascade deletes throughout" ("deleting a workout
deletes its exercises" is the table pass "deleting removes", patterns/relations.jsonl). The records
named get `on_parent_delete = "cascade"` (deleting the parent removes them) instead of the default
restrict (a 409 while children exist)."""

from __future__ import annotations

from harness.offline.spec.pass_helpers import use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_CASCADE = word_set("cascades.cascade")
_DELETE = word_set("cascades.delete")
_ALL = word_set("cascades.all")
_ASKS = word_set("cascades.asks")


def find_cascades(toks: list[Tok], mentions: dict[int, str], p) -> None:
    """Fill p.cascade with the child records whose parent's delete cascades to them."""
    children = {child for child, parent in p.parents.items() if parent}
    for i, t in enumerate(toks):
        if t.w in _CASCADE and (word(toks, i + 1) in _DELETE or word(toks, i - 1) in _DELETE):
            clause = [k for k in range(len(toks)) if toks[k].clause == t.clause]
            named = {mentions[k] for k in clause if k in mentions} & children
            whole = any(toks[k].w in _ALL for k in clause)
            last = i + 1 if word(toks, i + 1) in _DELETE else i
            bare = word(toks, last + 1) in ("", ".", ";", ",")   # "Use cascading deletes." names nothing
            chosen = children if whole or (bare and not named) else named
            if not chosen:
                continue   # "cascade deletes for notes": notes are no child record here
            p.cascade.update(chosen)
            for k in range(i - 2, i + 3):
                if word(toks, k) in _CASCADE | _DELETE | _ALL | _ASKS and not toks[k].used:
                    use(toks[k], f"relation:{min(chosen)}")   # its parent link's requirement proves it
