"""A record type named by its history: "each pet has a vaccine history (vaccine type, date given,
next due date)" asks for vaccine records of each pet with those columns, not a pet field whose
values are the column names.

Before the field lists are read, "<noun> history|log|records (<columns>)" — the parenthesised list
naming columns, not values (see `names_columns`) — becomes "<nouns> (<columns>)": the history
word is set aside (an ignored word) and the noun made plural, so the rules read it as they read "each pet has
vaccines (vaccine type, ...)": child records of the entity, with those fields.
"""

from __future__ import annotations

from harness.offline.field_kinds import kind_for_name
from harness.offline.spec import lexicon as lx
from harness.offline.spec.enum_values import read_enum
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

HISTORY_WORDS = word_set("history_records.history_words")
_COLUMN_HEADS = word_set("history_records.column_heads")
_NOT_COLUMN_KINDS = word_set("history_records.not_column_kinds")


def _word(toks: list[Tok], i: int) -> str:
    return toks[i].w if 0 <= i < len(toks) else ""


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


def mark_history_records(toks: list[Tok]) -> None:
    """Rewrite "<noun> history (<columns>)" as "<nouns> (<columns>)" (see the module doc)."""
    for i, t in enumerate(toks):
        if t.used or t.w not in HISTORY_WORDS or _word(toks, i + 1) != "(" or i == 0:
            continue
        noun = toks[i - 1]
        if noun.used or not noun.w.isalpha() or noun.clause != t.clause or noun.w in lx.FUNCTION \
                or noun.w in lx.DETERMINERS or noun.w in lx.ADJECTIVES or noun.w in HISTORY_WORDS:
            continue
        values, _end = read_enum(toks, i + 1, own=False)
        if not names_columns(values):
            continue
        noun.w = lx.pluralize(lx.singularize(noun.w))
        t.w, t.used, t.role = "", True, "context"   # read as "vaccines (...)"
