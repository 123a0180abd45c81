"""Whose fields a list is when no record stands right before it: a line naming a record and its
information above a comma list ("List of the recipes, with some key information:" / "Recipe ID,
Brand, the cooking time"), a "<record>: record the information (...)" heading.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.fields import DETAIL_WORDS, FieldItem, parse_field_list
from harness.offline.spec.nouns import is_noun
from harness.offline.spec.pass_helpers import STOPS
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

COLUMN_WORDS = word_set("list_subjects.column_words")

_INTRO_SKIP = lx.DETERMINERS | word_set("list_subjects.intro_skip_extra")


def intro_list(toks: list[Tok], i: int) -> tuple[int, list[FieldItem], list[int], list[int]] | None:
    """ "List of all the recipes, with some key information in the table:" and on the next line
    "Recipe ID, Brand, the cooking time, ...": a comma list of two or more fields under a line that
    names a record and its information belongs to that record: (record index, items, consumed
    indices, indices of records named in the list), or None."""
    detail = next((k for k in range(i - 1, max(-1, i - 7), -1) if toks[k].w in DETAIL_WORDS | COLUMN_WORDS
                   and toks[k].clause == toks[i].clause), None)
    if detail is None:
        return None
    j = detail - 1
    while j >= 0 and toks[j].w in _INTRO_SKIP and toks[j].clause == toks[i].clause:
        j -= 1
    if j < 0 or toks[j].clause != toks[i].clause or not is_noun(toks, j):
        return None
    links: list[int] = []
    items, consumed = parse_field_list(toks, i + 2, False, STOPS, links=links)
    return (j, items, consumed, links) if len(items) >= 2 else None


def heading_record(toks: list[Tok], j: int) -> int | None:
    """The record of a "<record>: <verb> (the) information (...)" heading line, else None."""
    k = j - 1
    while k >= 0 and toks[k].w in lx.DETERMINERS:
        k -= 1
    if k >= 2 and toks[k].w.isalpha() and toks[k - 1].w == ":" and is_noun(toks, k - 2) \
            and toks[k - 2].clause == toks[j].clause:
        return k - 2
    return None
