"""A record type that is only one value of another record's choice: "Transactions
(income/expense)" in "a personal expense management app" — the expenses are the transactions of
type expense, not a second table beside them.

An entity is dropped when its name is an enum value of a field of another entity and nothing
else was said about it: no fields of its own, no parent, no children. Its mentions then belong
to that field ("chi tiêu" in "quản lý chi tiêu" reads as the expense type of transactions).
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import forget_records
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set


def drop_enum_value_entities(toks: list[Tok], mentions: dict[int, str], p) -> None:
    """Remove entities that are an enum value of another entity's field (see the module doc)."""
    values: dict[str, str] = {}
    for owner, items in p.fields.items():
        for it in items:
            for v in it.enum_values:
                values.setdefault(lx.singularize(v.lower()), owner)
    for name in list(p.entities):
        owner = values.get(name)
        if owner is None or owner == name or owner not in p.plurals or p.fields.get(name) \
                or name in p.parents or name in p.parents.values():
            continue
        forget_records(p, [name], mentions)
        for t in toks:
            if t.role == f"entity:{name}":
                t.role = f"field:{owner}"


_BACK_REFERENCES = word_set("enum_entities.back_references")


def drop_field_head_entities(toks: list[Tok], mentions: dict[int, str], p) -> None:
    """Remove an entity that only refers back to another entity's field: "... exceed the entered
    frequency" after "a plant with a watering frequency". Dropped only when every mention is
    singular after "the"/"its" (participles between are allowed), or plural in a clause that names the
    field's record ("add notes to an item" when items list notes), and nothing else was said of it."""
    heads: dict[str, str] = {}
    whole: set[tuple[str, str]] = set()   # a field whose whole label is the word ("notes", not "average rating")
    for owner, items in p.fields.items():
        for it in items:
            if it.words:
                heads.setdefault(lx.singularize(it.words[-1]), owner)
                if len(it.words) == 1:
                    whole.add((owner, lx.singularize(it.words[0])))
    for name in list(p.entities):
        owner = heads.get(name)
        if owner is None or owner == name or p.fields.get(name) or name in p.parents or name in p.parents.values():
            continue
        spots = [i for i, n in mentions.items() if n == name]
        # "add notes to an item" when the item lists notes: the clause names the field's record
        if not spots or not all(_refers_back(toks, i) or (owner, name) in whole and _beside_owner(toks, mentions, i, owner)
                                 for i in spots):
            continue
        forget_records(p, [name], mentions)
        for t in toks:
            if t.role == f"entity:{name}":
                t.role = f"field:{owner}"


def _beside_owner(toks: list[Tok], mentions: dict[int, str], i: int, owner: str) -> bool:
    """The mention at i is plural and its clause names the record whose field it is."""
    return lx.singularize(toks[i].w) != toks[i].w and any(
        n == owner and toks[j].clause == toks[i].clause for j, n in mentions.items())


def _refers_back(toks: list[Tok], i: int) -> bool:
    if lx.singularize(toks[i].w) != toks[i].w:
        return False
    j = i - 1
    while j >= 0 and (toks[j].w.endswith("ed") or toks[j].w in word_set("enum_entities.chosen_words")):
        j -= 1   # "the entered frequency", "the chosen interval"
    return j >= 0 and toks[j].w in _BACK_REFERENCES
