"""Board layouts the generator does not build: "a task manager with three columns: tasks,
meetings and backburner", "a kanban board", "move tasks between the columns" — and the
small-screen layout it does build ("responsive mobile": every page has the viewport tag and a
small-screen stylesheet rule, so "mobile" next to "responsive" is that layout, not a mobile app).

The generated app lists each record type on one page (a table, one column per field); it has no
board whose lanes hold records and no moving a record from lane to lane. Such a clause must not
count as built because it also names a record type: its layout ask is recorded as blocked (the
clause becomes not_built with this reason), and the lane names after the layout word are lanes,
never record types. A table's columns ("a table with columns: name, price", "the columns must be
Title, Author") are fields and are left to the field passes.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.nouns import FIELD_WORDS
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_LANES = word_set("layout.lanes")
_ALWAYS = word_set("layout.always")
_COUNTS = word_set("layout.counts")
_BOARD = word_set("layout.board")
_BETWEEN = word_set("layout.between")
_TABLE = word_set("layout.table")
_LIST_STOP = word_set("layout.list_stop")
REASON = ("a board whose columns hold records{lanes} is not built: the offline app lists each "
          "record type on one page, with no columns to move records between")


def find_board_layouts(toks: list[Tok], p) -> None:
    """Mark board-layout words (and the lane names they list) and block their clauses."""
    for i, t in enumerate(toks):
        if t.used or not (t.w in _ALWAYS or t.w in _LANES and _board_sense(toks, i)):
            continue
        lanes = _lane_names(toks, i)
        for k in [i, *lanes]:
            _use(toks[k], "context")
        for k in [*range(max(0, i - 3), i), i + 1]:   # "three", "kanban board": part of the layout words
            if k < len(toks) and toks[k].clause == t.clause and not toks[k].used \
                    and (toks[k].w in _COUNTS | _BOARD or toks[k].w.isdigit()):
                _use(toks[k], "context")
        names = [toks[k].orig or toks[k].w for k in lanes if toks[k].w[:1].isalnum() and toks[k].w not in lx.FUNCTION]
        reason = REASON.format(lanes=f" ({', '.join(names)})" if names else "")
        if (t.clause, reason) not in p.blocked:
            p.blocked.append((t.clause, reason))


def _board_sense(toks: list[Tok], i: int) -> bool:
    """ "three columns", "board with columns", "between the columns" — and not a table's columns."""
    clause = toks[i].clause
    words = [t.w for t in toks if t.clause == clause]
    if any(w in _TABLE for w in words):
        return False
    before = [toks[k].w for k in range(max(0, i - 3), i) if toks[k].clause == clause]
    counted = bool(before) and (before[-1] in _COUNTS or before[-1].isdigit())
    if not (counted or any(w in _BOARD for w in before) or any(w in _BETWEEN for w in before)):
        return False
    lanes = _lane_names(toks, i)
    return not any(toks[k].w in FIELD_WORDS for k in lanes)   # "3 columns: name, price, date" are fields


def _lane_names(toks: list[Tok], i: int) -> list[int]:
    """Indices of the words listed after "columns:" / "columns (" up to the clause end."""
    j = i + 1
    while _word(toks, j) in word_set("layout.lane_intros"):
        j += 1
    if _word(toks, j) not in (":", "("):
        return []
    out = []
    k = j + 1
    while k < len(toks) and toks[k].clause == toks[i].clause and toks[k].w not in _LIST_STOP:
        out.append(k)
        k += 1
    return out
