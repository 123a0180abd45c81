"""Which words can be (part of) a field name: the word-level tests of the field-list reader
(fields.py) — "cooking time", "join date", "monthly fee", "page count", a hard-wrapped line, a run
of column words without commas."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("field_words")

_MAX_WORD = 40
DETAIL_WORDS = WORDS.detail_words
COMPOUND_HEADS = WORDS.compound_heads


def field_word(w: str, stops: frozenset[str]) -> bool:
    """Whether `w` can be (part of) a field name."""
    if not w or not w[0].isalpha() or " " in w or len(w) > _MAX_WORD or w in WORDS.never_fields:
        return False
    if w.endswith("ing") and w not in lx.NOUN_ING and w not in lx.FIELD_VOCAB:
        return False
    if w in lx.FIELD_VOCAB or lx.singularize(w) in lx.FIELD_VOCAB:
        return True
    return not (w in lx.FUNCTION or w in lx.META or w in stops or w.endswith("ly"))


_WRAP_BEFORE = lx.DETERMINERS | lx.SEPARATORS | WORDS.wrap_before_extra


def soft_wrap(toks: list[Tok], j: int) -> bool:
    """Whether the clause break at j is only a line break inside a sentence: no period was written
    and the line ends where no sentence can ("... containing the", "a title, a")."""
    return toks[j].w == "." and not toks[j].orig and 0 < j < len(toks) - 1 and toks[j - 1].orig != "." \
        and toks[j - 1].w in _WRAP_BEFORE and toks[j + 1].w[:1].isalnum()


def ing_compound(toks: list[Tok], j: int, stops: frozenset[str]) -> bool:
    """ "cooking time", "shipping address", "billing date": an -ing word before a column word."""
    w, nxt = toks[j].w, _word(toks, j + 1)
    return w.endswith("ing") and len(w) > 4 and w not in stops and w not in lx.FUNCTION and (
        (nxt in lx.FIELD_VOCAB or lx.singularize(nxt) in lx.FIELD_VOCAB) and field_word(nxt, stops)
        or nxt in DETAIL_WORDS   # "billing information"
        or nxt in WORDS.ing_heads and field_word(nxt, stops))   # "watering interval", "feeding schedule"


_WHEN_HEADS = lx.DATE_WORDS | lx.DATETIME_WORDS


def modifier(toks: list[Tok], j: int) -> bool:
    """ "join date", "return time" (a verb naming the moment), "monthly fee" (a period): a word no
    column starts with on its own, right before a column word that ends the item."""
    w, nxt, after = toks[j].w, _word(toks, j + 1), _word(toks, j + 2)
    ends = after in lx.SEPARATORS or after in (".", "", ")", "(")
    if not ends or not w.isalpha() or w in lx.FUNCTION:
        return False
    return w in lx.VERBS and nxt in _WHEN_HEADS or w in WORDS.periods and lx.singularize(nxt) in lx.FIELD_VOCAB \
        or w in lx.META and nxt in WORDS.count_heads   # "page count", "page number": a count of the UI word


def column_follows(toks: list[Tok], k: int, stops: frozenset[str]) -> bool:
    """Whether one to three words from k end an item on a column word ("due date", "visit date")."""
    for n in range(3):
        w = _word(toks, k + n)
        if not (field_word(w, stops) or w in lx.FIELD_VOCAB):
            return False
        if lx.singularize(w) in lx.FIELD_VOCAB and _word(toks, k + n + 1) in lx.SEPARATORS | {".", "", ")", "("}:
            return True
    return False


def split_run(words: list[str]) -> list[list[str]]:
    """ "name surname telephone number" (no commas): one field per column word, a head such as
    "number" staying with the word before it ("telephone number")."""
    out: list[list[str]] = []
    for w in words:
        if out and w in COMPOUND_HEADS and len(out[-1]) == 1 and out[-1][0] not in COMPOUND_HEADS:
            out[-1].append(w)
        else:
            out.append([w])
    return out
