"""The records a clause is about, for crediting its words (#48): the record types it names, and the
record a word belongs to by the words around it ("the manufacturer's name", "the name of its
manufacturer"). Reads the clause's words and the spec's words only (SpecWords)."""

from __future__ import annotations

import re

from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, stem

# Between "of" and the record word: "the name of its manufacturer".
_SKIP = closed("record determiners")

# An entity word after one of these, with another entity earlier in the clause, names a link.
_LINKING = closed("linking words")


def clause_records(toks: list[str], sw: SpecWords) -> frozenset[str]:
    """The idents of the record types the clause names."""
    return frozenset(e for e in (entity_at(toks, k, sw) for k in range(len(toks))) if e)


def entity_at(toks: list[str], k: int, sw: SpecWords) -> str | None:
    """The record type word k names ("manufacturer", "manufacturer's"), or None."""
    if not 0 <= k < len(toks):
        return None
    s = stem(re.sub(r"['’]s?$", "", toks[k].lower()))
    return sw.entity_of.get(s) if sw.by_stem.get(s, "").startswith("entity ") else None


def owner_of(toks: list[str], i: int, sw: SpecWords) -> str | None:
    """The record a field word at i belongs to by the words around it: the record word before it
    ("the manufacturer's name", "the manufacturer name") or after "of" ("the name of its manufacturer")."""
    before = entity_at(toks, i - 1, sw)
    if before and modifies(toks[i - 1], sw):
        return before
    k = i + 1
    if k < len(toks) and toks[k].lower() == "of":
        k += 1
        while k < len(toks) and toks[k].lower() in _SKIP:
            k += 1
        return entity_at(toks, k, sw)
    return None


def modifies(tok: str, sw: SpecWords) -> bool:
    """A record word that names the owner of the next word: possessive ("manufacturer's") or the
    singular name ("manufacturer name"); a plural is a list item ("items, total")."""
    low = tok.lower().replace("’", "'")
    if low.endswith(("'s", "s'")):
        return True
    name = sw.by_stem.get(stem(low), "").removeprefix("entity ")
    return bool(name) and low == name.split()[-1].lower()


def possessed(toks: list[str], i: int) -> bool:
    """ "their owners", "its tasks": a record said to belong to one named before it."""
    return i > 0 and toks[i - 1].lower() in closed("possessives")


def after_link(toks: list[str], i: int) -> bool:
    k = i - 1
    while k >= 0 and toks[k].lower() in _SKIP:
        k -= 1
    return k >= 0 and toks[k].lower() in _LINKING
