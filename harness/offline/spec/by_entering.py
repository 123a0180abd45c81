"""Fields named by how a record is filled in: "Add plants to your collection by entering name,
species, and watering interval", "Register a pet by typing a name, a breed and a weight".

The verb after "by" introduces the record's fields; the record is the object of the clause's
verb before "by", past a destination ("to your collection", "to the list") that is the app's
container, not the record.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.entities import is_noun
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

BY_VERBS = word_set("by_entering.by_verbs")
_DESTINATION = word_set("by_entering.destination")


DESCRIBED_BY = word_set("by_entering.described_by")
_BE = word_set("by_entering.be")
_FORM_LEADS = word_set("by_entering.form_leads")
_FORM_WORDS = word_set("field_passes.form_words")
_FORM_LINKS = word_set("by_entering.form_links")


def by_entering(toks: list[Tok], i: int) -> tuple[int, int] | None:
    """(the record's index, where its field list starts) when the words at i introduce a record's
    fields by how it is filled in or told apart, else None: "by entering name, ...", "by submitting
    a form with species, name, ...", "Each donor is identified by a donor id, name, ..."."""
    described = _described_by(toks, i)
    if described is not None:
        return described
    if toks[i].w not in BY_VERBS or i < 2 or toks[i - 1].w != "by":
        return None
    record = _object_before_by(toks, i)
    return None if record is None else (record, _past_form(toks, i + 1))


def _described_by(toks: list[Tok], i: int) -> tuple[int, int] | None:
    """ "Each donor is identified by a donor id, name, ...", "Animals are described by species,
    ...": the subject of the passive before "by" has the fields after it."""
    if toks[i].w not in DESCRIBED_BY or _at(toks, i + 1) != "by" or _at(toks, i - 1) not in _BE:
        return None
    j = i - 2
    if j < 0 or toks[j].clause != toks[i].clause or not is_noun(toks, j):
        return None
    return j, i + 2


def _past_form(toks: list[Tok], k: int) -> int:
    """Where the field list starts after "by submitting": past "a form with" ("out the form listing")."""
    m = k
    while _at(toks, m) in _FORM_LEADS:
        m += 1
    if _at(toks, m) in _FORM_WORDS and _at(toks, m + 1) in _FORM_LINKS:
        return m + 2
    return k


def _object_before_by(toks: list[Tok], i: int) -> int | None:
    """The object of the verb before "by", past a destination ("to your collection")."""
    j = i - 2
    dest = j
    while dest >= 0 and dest > i - 6 and toks[dest].w.isalpha() and toks[dest].w not in _DESTINATION \
            and toks[dest].clause == toks[i].clause:
        dest -= 1   # "to your plant collection", "to the list"
    if dest >= 0 and toks[dest].w in _DESTINATION and dest < j:
        j = dest - 1
    while j >= 0 and toks[j].w in lx.FILLER:
        j -= 1
    if j < 0 or toks[j].clause != toks[i].clause or not is_noun(toks, j):
        return None
    return j


_EACH = word_set("by_entering.each")


def fields_for_each(toks: list[Tok], i: int, parse) -> tuple[int, list, list[int]] | None:
    """ "Input fields for title, amount, and date for each entry": (the record's index, the field
    items, consumed indices) when the fields come before the record they belong to."""
    if toks[i].used or toks[i].w not in word_set("by_entering.field_inputs") or _at(toks, i + 1) != "for":
        return None
    items, consumed = parse(i + 2)
    if len(items) < 2:
        return None
    k = max(consumed) + 1
    if _at(toks, k) not in word_set("by_entering.for_each_preps") or _at(toks, k + 1) not in _EACH | {"per"} and _at(toks, k) != "per":
        return None
    r = k + 1 if _at(toks, k) == "per" else k + 2
    if r >= len(toks) or toks[r].clause != toks[i].clause or not is_noun(toks, r):
        return None
    return r, items, [i, i + 1, *consumed, k, k + 1]


def _at(toks: list[Tok], i: int) -> str:
    return toks[i].w if 0 <= i < len(toks) else ""
