"""Ratings with their range: "rate recipes from 1 to 5 stars", "a 1-5 star rating" give the nearest
record a rating field bounded by that range."""

from __future__ import annotations

from harness.offline.spec.wordsets import word_set
from harness.offline.spec.build import Parsed
from harness.offline.spec.fields import FieldItem, read_range
from harness.offline.spec.pass_helpers import nearest as _nearest
from harness.offline.spec.pass_helpers import past_determiners
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.tokens import Tok


# "users can rate the workouts they do": the verb with its record and no range is a 1-5 rating,
# the scale a developer would give it (before, "rate" read as "manage" and no rating was built).
DEFAULT_LOW, DEFAULT_HIGH = 1, 5


def _rated_record(toks: list[Tok], i: int, mentions: dict[int, str]) -> str | None:
    """The record the verb "rate(s)" at `i` takes as its object ("rate the workouts"), else None
    (the noun: "the hourly rate for employees", "rating" without a range)."""
    if toks[i].w not in word_set("rating_fields.rate_verbs"):
        return None
    return mentions.get(past_determiners(toks, i + 1))


def find_ratings(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    """ "rate recipes from 1 to 5 stars", "a 1-5 star rating": a rating field with its range;
    "rate the workouts they do": a 1-5 rating."""
    for i, t in enumerate(toks):
        if t.used or t.w not in word_set("rating_fields.rating_words"):
            continue
        rng, end = None, i
        for j in range(i + 1, min(i + 6, len(toks))):
            rng = read_range(toks, j)
            if rng:
                break
        if rng is None and i >= 2:
            rng = read_range(toks, i - 3) or read_range(toks, i - 2) or read_range(toks, i - 1)
        rated = _rated_record(toks, i, mentions) if rng is None else None
        if rng is None and rated is None:
            continue
        entity = rated or _nearest(toks, i, mentions)
        if entity is None:
            continue
        low, high, end = rng or (DEFAULT_LOW, DEFAULT_HIGH, i + 1)
        start = min(i, next((k for k in range(max(0, i - 4), i) if read_range(toks, k)), i))
        for k in range(start, max(end, i + 1)):
            if not toks[k].used:
                _use(toks[k], f"field:{entity}")
        items = p.fields.setdefault(entity, [])
        if not any(it.label == "rating" for it in items):
            items.append(FieldItem(words=["rating"], min_value=low, max_value=high))
        p.field_clauses.setdefault(entity, []).append(t.clause)
