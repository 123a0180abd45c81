"""Pieces of a field list that are no field: a numeric range ("1 to 5", "on a 1-100 scale"), a
record named between the fields ("including ingredients, steps"), a detail noun shared by the
modifiers before it ("personal and financial information").
"""

from __future__ import annotations

import re

from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("list_parts")


_RANGE = re.compile(r"^\d{1,4}$")


def read_range(toks: list[Tok], j: int) -> tuple[float, float, int] | None:
    """ "1 to 5", "from 1 to 5", "1-5", "0..10" at j -> (low, high, end index)."""
    k = j + (toks[j].w in WORDS.range_preps if j < len(toks) else 0)
    if k + 2 < len(toks) and _RANGE.match(toks[k].w) and toks[k + 1].w in ("to", "and", "-") \
            and _RANGE.match(toks[k + 2].w):
        low, high = float(toks[k].w), float(toks[k + 2].w)
        if low < high:
            end = k + 3
            if end < len(toks) and toks[end].w in WORDS.range_units_or_scale:
                end += 1
            return low, high, end
    m = re.match(r"^(\d{1,4})-(\d{1,4})$", toks[k].w) if k < len(toks) else None
    if m and float(m.group(1)) < float(m.group(2)):
        end = k + 1 + (k + 1 < len(toks) and toks[k + 1].w in WORDS.range_units)
        return float(m.group(1)), float(m.group(2)), end
    return None


def scale(toks: list[Tok], k: int) -> tuple[float, float, int] | None:
    """ "1-100 scale" / "scale of 1 to 10" at k -> (low, high, index after it)."""
    if _word(toks, k) == "scale":
        rng = read_range(toks, k + 1)
        return rng if rng and _word(toks, k + 1) in ("of", "from") else None
    rng = read_range(toks, k)
    if rng and _word(toks, rng[2]) == "scale":
        return rng[0], rng[1], rng[2] + 1
    if rng and _word(toks, rng[2] - 1) == "scale":
        return rng
    return None


PRONOUNS = WORDS.pronouns


def past_link(toks: list[Tok], j: int, words: list[str]) -> int | None:
    """A list item that is a plural record noun ("ingredients") names linked records, not a field;
    when more items follow, the list goes on past it and past its aside ("(including their
    amounts)", "that are connected to a recipe (...)"): the index of the separator after it."""
    if words and len(words) != 1 or not words and not (j < len(toks) and toks[j].w.isalpha()
                                                       and lx.singularize(toks[j].w) != toks[j].w):
        return None
    k, depth = j + 1, 0
    while k < len(toks) and k - j < 40 and toks[k].clause == toks[j].clause:
        w = toks[k].w
        depth += (w == "(") - (w == ")")
        if depth < 0 or w == "." and toks[k].orig:
            return None
        if depth == 0 and w in (",", "and") and k + 1 < len(toks) and toks[k + 1].w not in (".", ""):
            return k + (w == ",")
        k += 1
    return None


def share_head(items: list, words: list[str], head: str) -> bool:
    """ "personal, financial and references information" (`items`: the FieldItems so far): the head
    noun after the last item is shared by the modifier items before it (one word, no column word of their own); a plural noun
    before the head names the content itself ("references")."""
    k = len(items) - 1
    while k >= 0 and len(items[k].words) == 1 and not items[k].enum_values \
            and items[k].words[0] not in lx.FIELD_VOCAB:
        items[k].words = [items[k].words[0], head]
        k -= 1
    if not words:
        return False
    if not (len(words) == 1 and lx.singularize(words[0]) != words[0]):
        words.append(head)
    return True
