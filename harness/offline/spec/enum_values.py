"""Enum values in a request: "(a, b, c)", ": a / b / c", "a priority of low, medium or high",
"priority low/medium/high", a "(yes/no)" aside; a Vietnamese list keeps the user's own words
("còn trống", "cao"), and so does a Vietnamese field's label ("số phòng").
"""

from __future__ import annotations

from harness.offline.field_kinds import kind_for_name
from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set, word_sets

WORDS = word_sets("enum_values")

_MAX_ENUM = 12


def read_enum(toks: list[Tok], j: int, own: bool = True) -> tuple[list[str], int]:
    """Values of "(a, b, c)" or ": a / b / c" starting at j (the "(" or ":"); ([], j) if none.
    `own`: values of a list written in Vietnamese in the user's words ("còn trống", "cao"), not
    the English the rules read; else the English words."""
    close = ")" if toks[j].w == "(" else None
    groups: list[list[Tok]] = []
    k, cur = j + 1, []
    while k < len(toks) and len(groups) <= _MAX_ENUM:
        w = toks[k].w
        if close and w == close:
            break
        if w in WORDS.enum_separators or w in ("->", "→"):
            if cur:
                groups.append(cur)
                cur = []
        elif w in WORDS.etc and (close is None or _word(toks, k + 1) == close):
            pass   # "(meat, chicken, vegetarian etc)", "(groceries, bills, etc)": no value "etc"
        elif w and (w[0].isalnum()) and len(cur) < 3 and not toks[k].used:
            cur.append(toks[k])
        else:
            break
        k += 1
    if cur:
        groups.append(cur)
    if len(groups) < 2 or (close and (k >= len(toks) or toks[k].w != close)):
        return [], j
    vi = own and any(not t.orig.isascii() for g in groups for t in g)
    values = [" ".join(t.orig.lower() for t in g if t.orig) if vi else " ".join(t.w for t in g) for g in groups]
    return list(dict.fromkeys(values)), k + (1 if close else 0)


def own_words(toks: list[Tok], idx: list[int], words: list[str]) -> str:
    """The words the user wrote for a field read from Vietnamese ("số phòng" for "room number"),
    "" when they wrote English."""
    named = set(words)
    own = [toks[k].orig for k in idx if toks[k].w in named and toks[k].orig]
    return " ".join(own).lower() if any(not w.isascii() for w in own) else ""


YES_NO = WORDS.yes_no
ENUM_HEADS = WORDS.enum_heads


def yes_no_aside(toks: list[Tok], j: int) -> bool:
    values, end = read_enum(toks, j, own=False)
    return len(values) == 2 and set(values) <= YES_NO


def value_run(toks: list[Tok], j: int) -> tuple[list[str], int] | None:
    """ "low, medium or high" / "low/medium/high" at j: one-word values that are no column names,
    up to the end of the item; (values, end) when there are two or more."""
    values, k = [], j
    slash = _word(toks, j + 1) == "/"
    while k < len(toks) and toks[k].w.isalpha() and not toks[k].used and toks[k].w not in lx.FIELD_VOCAB \
            and toks[k].w not in lx.FUNCTION and len(values) < 12:
        values.append(toks[k].orig.lower() if not toks[k].orig.isascii() else toks[k].w)   # Vietnamese: as written
        sep = _word(toks, k + 1)
        if sep == "/" or not slash and sep in (",", "or"):
            k += 2
            continue
        k += 1
        break
    else:
        return None
    if len(values) < 2 or _word(toks, k) not in lx.SEPARATORS | {".", "", ")"} \
            or _word(toks, k - 2) not in ("or", "/"):
        return None   # the last value follows "or" or "/": "low, medium or high"
    return list(dict.fromkeys(values)), k


_COLUMN_HEADS = word_set("history_records.column_heads")
_NOT_COLUMN_KINDS = word_set("history_records.not_column_kinds")


def names_columns(values: list[str]) -> bool:
    """Whether a parenthesised list names columns ("vaccine type, date given, next due date"), not
    the values of one ("low, medium, high", "cash, card"): at least two of its items, and at least
    half, end on a column word or are names of two or more words with a kind of their own ("date
    given": a date)."""
    def column(value: str) -> bool:   # one word only by its head: "income, expense" are values
        words = value.split()
        return lx.singularize(words[-1]) in _COLUMN_HEADS or len(words) > 1 and kind_for_name(value) not in _NOT_COLUMN_KINDS
    hits = sum(column(v) for v in values)
    return hits >= 2 and 2 * hits >= len(values)
