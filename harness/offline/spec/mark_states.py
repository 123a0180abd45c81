"""The other words of a yes/no field's ask: "mark a movie as watched or unwatched" (the opposite
state is the same field set to false) and "mark it watched" / "mark the movie watched" (no "as":
the field is set on edit, not the record's done status).

Runs after the field passes found the yes/no field (`watched`); before it, "unwatched" stayed an
unknown word and "mark it watched" became a second, invented open/done status with a Complete
button, while editing the `watched` field is what the generated app really does.
"""

from __future__ import annotations

from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_MARK = word_set("mark_states.mark_verbs")
_BETWEEN = word_set("mark_states.between")
_REACH = 4


def _bools(p) -> dict[str, set[str]]:
    return {e: {it.label for it in items if it.hint == "bool"} for e, items in p.fields.items()}


def mark_field_states(toks: list[Tok], mentions: dict[int, str], p) -> None:
    """Give "mark it <state>" the role of the yes/no field it sets (before completion targets
    are chosen, so it is no done status)."""
    bools = _bools(p)
    for i, t in enumerate(toks):
        if t.w in _MARK and (not t.used or t.role == "complete:"):
            _mark_state(toks, i, mentions, bools)


def mark_opposite_states(toks: list[Tok], p) -> None:
    """Give the opposite state ("watched or unwatched", "filter by watched/unwatched") the role
    of the yes/no field's word before it (a field, or a feature over it)."""
    bools = _bools(p)
    for i, t in enumerate(toks):
        entity = t.role.rpartition(":")[2] if t.role.startswith(("field:", "feature:")) else ""
        if entity and t.w in bools.get(entity, ()):
            _opposite(toks, i, t.role)


def _opposite(toks: list[Tok], i: int, role: str) -> None:
    """ "watched or unwatched", "read/unread", "paid or not paid", "paid or not"."""
    word = toks[i].w
    if _word(toks, i + 1) not in ("or", "/"):
        return
    k = i + 2
    if _word(toks, k) == "not":
        k += 1 if _word(toks, k + 1) == word else 0
    elif _word(toks, k) not in (f"un{word}", f"non-{word}", f"not-{word}"):
        return
    for x in range(i + 1, k + 1):
        if not toks[x].used:
            _use(toks[x], role)


def _mark_state(toks: list[Tok], i: int, mentions: dict[int, str], bools: dict[str, set[str]]) -> None:
    """ "mark it watched": the yes/no field of the record named there (or of the one record
    that has a field of that name)."""
    named = None
    for k in range(i + 1, min(len(toks), i + 1 + _REACH)):
        if toks[k].clause != toks[i].clause:
            return
        w = toks[k].w
        if k in mentions:
            named = mentions[k]
            continue
        if w in _BETWEEN:
            continue
        owners = [e for e, words in bools.items() if w in words and (named is None or e == named)]
        if len(owners) == 1 and not toks[k].used:
            role = f"field:{owners[0]}"
            for x in range(i, k + 1):
                if x == i or not toks[x].used:
                    _use(toks[x], role)
        return
