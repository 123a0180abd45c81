"""The other words of a yes/no field's ask: "mark it watched" / "mark the movie watched" (no "as":
the field is set on edit, not the record's done status). (The opposite state, "watched or
unwatched", is the table pass "opposite states", rows of patterns/field_lists.jsonl.)

Runs after the field passes found the yes/no field (`watched`); before it, "mark it watched" became
a second, invented open/done status with a Complete button, while editing the `watched` field is
what the generated app really does.
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
