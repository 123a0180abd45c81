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

_REQUIRED = r"(?:mandatory|required|compulsory|obligatory|a must)"
_PATTERNS = (
    re.compile(r"^(?:the\s+)?(?P<list>[\w\s,'-]+?)\s+(?:should|must|shall|will|need\s+to|needs\s+to|has\s+to|have\s+to)\s+"
               rf"be\s+{_REQUIRED}\b", re.I),
    re.compile(rf"^(?:the\s+)?(?P<list>[\w\s,'-]+?)\s+(?:is|are)\s+(?:always\s+)?{_REQUIRED}\b", re.I),
    re.compile(r"\b(?:have|has|need|needs|require|requires|contain|contains)\s+at\s+least\s+(?P<list>[\w\s,'-]+?)\s*[.!]?$",
               re.I),
    # "I must provide a Date for the event", "Users have to enter a title (e.g. ...)"
    re.compile(r"^(?:i|we|you|users?|the\s+\w+)\s+(?:must|need\s+to|needs\s+to|have\s+to|has\s+to)\s+"
               r"(?:provide|enter|give|specify|supply)\s+(?P<list>[\w\s,'-]+?)\s*(?:\bfor\b.*|\(.*|[.!]?)$", re.I),
)
# Fields read elsewhere that a clause says a record must hold ("Every product must have a price", "The
# title cannot be empty", stranger trial 2026-12-07h c22): only fields a record already has are marked.
_HELD = (
    re.compile(r"^(?:every|each|all|any|a|an|the)\s+[\w-]+\s+(?:must|should|shall|has\s+to|have\s+to|needs?\s+to)\s+"
               r"(?:always\s+)?(?:have|has|include|contain)\s+(?P<list>[\w\s,'-]+?)\s*[.!]?$", re.I),
    # "A task needs a due date", "Each booking requires a date": the record cannot be without them
    re.compile(r"^(?:every|each|all|any|a|an|the)\s+[\w-]+\s+(?:always\s+)?(?:needs|requires)\s+"
               r"(?P<list>(?:a|an|the)\s[\w\s,'-]+?)\s*[.!]?$", re.I),
    re.compile(r"^(?:the\s+|a\s+|an\s+)?(?P<list>[\w\s,'-]+?)\s+(?:cannot|can't|can\s+not|must\s+not|may\s+not|should\s+not)\s+"
               r"be\s+(?:left\s+)?(?:empty|blank|missing)\s*[.!]?$", re.I),
)
# Fields read elsewhere that a clause says no two records share ("No two contacts can have the same email",
# "Each email must be unique", stranger trial 2026-12-07h c20): only fields a record already has, of a
# kind the generated app keeps unique (409 for a second record with the value).
_UNIQUE = (
    re.compile(r"^no\s+two\s+[\w-]+\s+(?:can|may|should|must|will|could)\s+(?:have|share|use)\s+the\s+same\s+"
               r"(?P<list>[\w\s,'-]+?)\s*[.!]?$", re.I),
    re.compile(r"^(?:the\s+|each\s+|every\s+|a\s+|an\s+)?(?P<list>[\w\s,'-]+?)\s+(?:(?:must|should|shall|has\s+to|have\s+to|"
               r"needs?\s+to|will)\s+be|is|are)\s+unique\s*[.!]?$", re.I),
)
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
