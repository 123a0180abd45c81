"""Which of a record's fields must be filled, said in a clause of its own: "Title and author should be
mandatory", "I want all book listings to have at least a title and an author", "The amount is
required", "Every product must have a price" — or unique: "No two contacts can have the same email",
"Each email must be unique". The fields were read elsewhere ("a book listing with a title, author, genre and ISBN");
this clause makes them required (the app answers 422 without them) instead of being reported as
words no rule understood. Only fields one record type has are marked; a list naming a field no
record has is left to the other rules.
"""

from __future__ import annotations

import re

from harness.offline.spec import lexicon as lx
from harness.offline.spec.fields import FieldItem
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_map

# The phrasings, as regular expressions whose group "list" names the fields (parser_maps.toml
# [required_fields.*]): required; held (only fields a record already has: "Every product must have a
# price"); unique (only fields a record already has, of a kind the app keeps unique: 409 for a second one).
_PATTERNS, _HELD, _UNIQUE = (tuple(re.compile(rx, re.I) for rx in word_map(f"required_fields.{group}").values())
                             for group in ("required", "held", "unique"))
_SPLIT = re.compile(r"\s*(?:,|\band\b|\bor\b|&)\s*", re.I)
_LEADING = re.compile(r"^(?:a|an|the|its|their|his|her|one)\s+", re.I)


def required_labels(clause: str, patterns=_PATTERNS) -> list[str]:
    """The field labels a "... should be mandatory" / "have at least ..." clause names ([] if none)."""
    text = " ".join(clause.split()).rstrip(".!")
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            parts = [_LEADING.sub("", part.strip()).lower() for part in _SPLIT.split(found.group("list"))]
            return [part for part in parts if part]
    return []


def _owner(labels: list[str], fields: dict) -> str | None:
    """The one record type that has a field for every label."""
    owners = [name for name, items in fields.items()
              if all(any(_same(label, item.label) for item in items) for label in labels)]
    return owners[0] if len(owners) == 1 else None


def _named_owner(labels: list[str], words: list[str], p) -> str | None:
    """ "I must provide a Start Time and End Time for each Shift", the fields read nowhere else: the
    one record type the clause names (or the request's only one) gets them, when no label names a
    record type."""
    named = list(dict.fromkeys(e for e in p.entities if e in {lx.singularize(w) for w in words}))
    owners = named if named else list(p.entities)
    if len(owners) != 1 or any(lx.singularize(w) in p.entities for label in labels for w in label.split()):
        return None
    items = p.fields.setdefault(owners[0], [])
    items += [FieldItem(label.split()) for label in labels if not any(_same(label, i.label) for i in items)]
    return owners[0]


def _same(label: str, field_label: str) -> bool:
    return label == field_label or lx.singularize(label) == lx.singularize(field_label)


def mark_required_statements(toks: list[Tok], clauses: list[str], p) -> None:
    """Set the named fields required (or unique) on their record type and mark the clause's words as its."""
    for k, clause in enumerate(clauses):
        unique = required_labels(clause, _UNIQUE)
        owner = _owner(unique, p.fields) if unique and all(len(label.split()) <= 3 for label in unique) else None
        if owner is not None:   # "No two contacts can have the same email": a field the record has
            for item in p.fields[owner]:
                item.unique = item.unique or any(_same(label, item.label) for label in unique)
            _mark(toks, k, owner)
            continue
        labels, held = required_labels(clause), required_labels(clause, _HELD)
        if held and not labels:   # "must have a price": a field the record already has, never a new one
            labels = held
        if not labels or any(len(label.split()) > 3 for label in labels):
            continue
        owner = _owner(labels, p.fields) or (None if labels is held else _named_owner(
            labels, [t.w for t in toks if t.clause == k], p))
        if owner is None:
            continue
        for item in p.fields[owner]:
            if any(_same(label, item.label) for label in labels):
                item.required = True
        _mark(toks, k, owner)


def _mark(toks: list[Tok], k: int, owner: str) -> None:
    for t in toks:
        if t.clause == k and t.w and (not t.used or t.role in ("", "context", "unexplained")):
            t.used, t.role = True, f"field:{owner}"
