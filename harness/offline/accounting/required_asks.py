"""A clause that says a value must be given ("I must provide a Date for the event", "Title and author
should be mandatory") asks for required fields: a field word there is realised only by a field the
finished spec makes required (the app answers 422 without it), and the word that says so
("mandatory", "required") is realised by those required fields. Reads the clause's words and the
spec's labels only."""

from __future__ import annotations

from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed

REQUIRED_WORDS = closed("required words")
_MUST = closed("required must")
_GIVE = closed("required give")
# "Every product must have a price", "must include a date": a record's value that must be there.
_HOLD = closed("required hold")
# "The title cannot be empty", "must not be blank": the value must be given.
EMPTY_WORDS = closed("required empty")
# "needs/requires <a value>": a record that cannot be without it.
_NEEDS_OBJECT = closed("required needs")
_CANNOT = closed("required cannot")
_SKIP = closed("required skip")
# A segment ends where an optional part may start ("..., description can be added later").
_BOUNDARY = closed("required boundary")
_NEGATION = closed("required negation")


def required_asks(low: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Relabel `labels` in place: in a segment that asks for required values, a field that is not
    required leaves its words unaccounted; the required word is realised by the required fields."""
    for start, end in _segments(low):
        markers = [k for k in range(start, end) if _marks_required(low, k)
                   and not (labels[k] or "").startswith("field ")]   # "requires confirmation": a field's own name
        if not markers:
            continue
        fields = {labels[k] for k in range(start, end) if (labels[k] or "").startswith("field ")}
        optional = fields - sw.required
        for k in range(start, end):
            if labels[k] in optional:
                labels[k] = None
        said = "required " + ", ".join(sorted(f[len("field "):] for f in fields))
        for k in markers if fields else []:   # "No login required" names no field
            if low[k] in REQUIRED_WORDS | EMPTY_WORDS | _NEEDS_OBJECT:
                labels[k] = said if fields and not optional else None


def _segments(low: list[str]) -> list[tuple[int, int]]:
    out, start = [], 0
    for k, w in enumerate(low):
        if w in _BOUNDARY:
            out.append((start, k))
            start = k + 1
    out.append((start, len(low)))
    return [(a, b) for a, b in out if b > a]


def _marks_required(low: list[str], k: int) -> bool:
    """ "required"/"mandatory" (not "not required"), or "must/need to/has to provide|enter|give …"."""
    if low[k] in REQUIRED_WORDS:
        return not (k and low[k - 1] in _NEGATION)
    if low[k] in EMPTY_WORDS:   # "cannot be empty", "must not be left blank"
        before = low[max(0, k - 4):k]
        return bool(_CANNOT & set(before)) or ("must" in before and "not" in before)
    if low[k] == "must" and k + 1 < len(low) and low[k + 1] in _HOLD:
        return True   # "must have a price" ("should have/contain" describes as often as it obliges)
    if low[k] in _NEEDS_OBJECT and k + 1 < len(low) and low[k + 1] != "to" and low[k + 1] not in _NEGATION:
        return True   # "a task needs a due date", "each booking requires a room": the record's value
    if low[k] not in _MUST:
        return False
    j = k + 1
    while j < len(low) and low[j] in _SKIP:
        j += 1
    if low[k] in closed("required verbs") and (j == k + 1 or low[k + 1] != "to"):
        return False
    return j < len(low) and low[j] in _GIVE
