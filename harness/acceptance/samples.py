"""Values the acceptance checks send, per field kind: a valid one (distinct per record), wrong ones
the app must refuse, and how a value read back is compared with the value sent.

Written from the spec's vocabulary (harness/models/spec.py) and the documented API convention
(docs/acceptance.md), never from the generator's templates: the two must agree by contract only.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Any

from harness.acceptance.phrases import Phrases
from harness.constructs.slot import Slot, find_slot
from harness.models.spec import DataEntity, EntityField

TEXT_KINDS = ("short_text", "long_text")


def kind_of(field: EntityField) -> str:
    """The field's kind; a field without one is read from its storage type."""
    if field.kind:
        return field.kind
    if field.ref:
        return "reference"
    return {"str": "short_text", "text": "long_text", "int": "integer", "float": "decimal",
            "bool": "boolean", "date": "date", "datetime": "datetime"}.get(field.type, "short_text")


def valid_value(field: EntityField, n: int, phrases: Phrases) -> Any:
    """A value of the field's kind that the app must accept; `n` makes records differ (texts,
    addresses and web addresses are the run's own words, unique each call: phrases.py)."""
    kind = kind_of(field)
    if kind in TEXT_KINDS:
        return phrases.text()
    if kind == "integer":
        return in_range(field, 3 + n, n)
    if kind in ("money", "decimal"):
        return in_range(field, round(12.5 + n * 3.25, 2), n)
    if kind == "rating":
        low = int(field.min_value if field.min_value is not None else 1)
        high = int(field.max_value if field.max_value is not None else 5)
        return low + n % (high - low + 1)
    if kind == "date":      # a different day for every record: no two share a slot
        return (date(2031, 1, 1) + timedelta(days=n)).isoformat()
    if kind == "time":
        return f"{8 + n % 8:02d}:{15 * (n % 4):02d}"
    if kind == "datetime":
        return f"{(date(2031, 1, 1) + timedelta(days=n)).isoformat()}T10:{n % 6}0:00"
    if kind == "boolean":
        return n % 2 == 0
    if kind == "email":
        return phrases.email()
    if kind == "phone":
        return f"+1 555 010 {1000 + n}"
    if kind == "url":
        return phrases.url()
    if kind == "enum":
        return field.enum_values[n % len(field.enum_values)] if field.enum_values else phrases.text()
    return phrases.text()


def sort_choices(field: EntityField) -> list[Any]:
    """Three values of a choice field to sort by, made in this order: its second, last and first
    value (two values: the second, the first, the second), so neither the making order nor the
    alphabet is its declared order; [] for a field of another kind."""
    choices = field.enum_values if kind_of(field) == "enum" else []
    if len(choices) > 2:
        return [choices[1], choices[-1], choices[0]]
    return [choices[1], choices[0], choices[1]] if len(choices) == 2 else []


def place(choices: list[str], value: Any) -> int:
    """The place of a value read back among a choice's declared values (in any letter case)."""
    spelled = [c.lower() for c in choices]
    return spelled.index(str(value).lower()) if str(value).lower() in spelled else -1


def summed_values(field: EntityField) -> tuple[Any, Any]:
    """Two values of a number field to total: valid for its kind (whole numbers for an integer or
    a rating, cents for money and decimals) and inside its range."""
    kind = kind_of(field)
    if kind == "rating":
        low = int(field.min_value if field.min_value is not None else 1)
        high = int(field.max_value if field.max_value is not None else 5)
        return low + 1 % (high - low + 1), low + 2 % (high - low + 1)
    if kind == "integer":
        return in_range(field, 12, 1), in_range(field, 30, 2)
    return in_range(field, 12.25, 1), in_range(field, 30.5, 2)


def roomy_value(field: EntityField, n: int) -> float:
    """A value of a number field that bounds another entity's `limit` (a room's occupancy): its
    `max`, else a million and `n` — above what any other check sends for the limited field."""
    high = field.max_value
    value = high if high is not None else 1_000_000 + n
    return math.floor(value) if kind_of(field) == "integer" else value


NUMBER_KINDS = ("integer", "money", "decimal")
_FLOORS = {"integer": 0, "money": 0}   # the documented floor of a kind without `min`


def _range(field: EntityField) -> tuple[float | None, float | None]:
    """The values a number field allows: its `min` (else its kind's floor) and its `max`."""
    return (field.min_value if field.min_value is not None else _FLOORS.get(kind_of(field)), field.max_value)


def in_range(field: EntityField, value: float, n: int) -> float:
    """`value` when the field's range allows it, else one inside the range that differs with `n`."""
    low, high = _range(field)
    if (low is None or value >= low) and (high is None or value <= high):
        return value
    if kind_of(field) == "integer":
        start = math.ceil(low) if low is not None else math.floor(high) - 100
        top = math.floor(high) if high is not None else start + 100
        return start + n % (top - start + 1)
    start = low if low is not None else high - 100
    top = high if high is not None else start + 100
    return start + (top - start) * (n % 5) / 4


def bounds(field: EntityField) -> list[tuple[str, float]]:
    """(which end, value) of a number field's given `min`/`max`: values the app must accept."""
    if kind_of(field) not in NUMBER_KINDS:
        return []
    whole = kind_of(field) == "integer"
    ends = (("its minimum", field.min_value, math.ceil), ("its maximum", field.max_value, math.floor))
    return [(end, round_to(v) if whole else _plain(v)) for end, v, round_to in ends if v is not None]


def _plain(value: float) -> float:
    """A whole float as an int (1.0 → 1), so messages and JSON show the number as the spec wrote it."""
    return int(value) if float(value).is_integer() else value


def _outside(field: EntityField) -> list[tuple[str, Any]]:
    """Values just outside a number field's given `min`/`max` (the nearest ones a range check refuses)."""
    whole = kind_of(field) == "integer"
    step = 1 if whole else 0.01
    out: list[tuple[str, Any]] = []
    if field.min_value is not None:
        low = math.ceil(field.min_value) - 1 if whole else round(field.min_value - step, 6)
        out.append((f"just below its minimum {_plain(field.min_value)}", low))
    if field.max_value is not None:
        high = math.floor(field.max_value) + 1 if whole else round(field.max_value + step, 6)
        out.append((f"just above its maximum {_plain(field.max_value)}", high))
    return out


def _allowed(field: EntityField, value: float) -> bool:
    low, high = _range(field)
    return (low is None or value >= low) and (high is None or value <= high)


def later(value: Any, kind: str, k: int) -> Any:
    """The k-th field of a time/date kind gets a later value (an end after its start)."""
    if not k or kind not in ("time", "date", "datetime"):
        return value
    if kind == "time":
        return f"{int(value[:2]) + 2 * k:02d}{value[2:]}" if int(value[:2]) + 2 * k < 24 else value
    return f"{int(value[:4]) + k}{value[4:]}"


def wrong_values(field: EntityField) -> list[tuple[str, Any]]:
    """(what is wrong, value) pairs the app must refuse with a 4xx for this field."""
    kind = kind_of(field)
    wrong: list[tuple[str, Any]] = []
    if kind in TEXT_KINDS:
        wrong.append(("a list instead of text", ["not", "text"]))
    elif kind == "integer":
        wrong += [("text instead of a number", "many"), *_outside(field)]
        wrong += [("a negative quantity", -1)] if not _allowed(field, -1) else []
    elif kind == "money":
        wrong += [("text instead of an amount", "lots"), *_outside(field)]
        wrong += [("a negative amount", -5)] if not _allowed(field, -5) else []
    elif kind == "decimal":
        wrong += [("text instead of a number", "lots"), *_outside(field)]
    elif kind == "rating":
        high = field.max_value if field.max_value is not None else 5
        low = field.min_value if field.min_value is not None else 1
        wrong += [("a rating above its range", int(high) + 1), ("a rating below its range", int(low) - 1)]
    elif kind == "date":
        wrong += [("an impossible date", "2031-13-45"), ("text instead of a date", "someday")]
    elif kind == "time":
        wrong += [("an impossible time", "25:99"), ("text instead of a time", "noonish")]
    elif kind == "datetime":
        wrong.append(("text instead of a date and time", "not a moment"))
    elif kind == "boolean":
        wrong.append(("a word that is not yes or no", "perhaps"))
    elif kind == "email":
        wrong.append(("an address without @", "not-an-address"))
    elif kind == "phone":
        wrong.append(("letters instead of a phone number", "call me maybe"))
    elif kind == "url":
        wrong.append(("text instead of a web address", "not a url"))
    elif kind == "enum" and field.enum_values:
        wrong.append(("a value outside its set", "zz-not-a-listed-value"))
    return wrong


def same(field: EntityField, sent: Any, got: Any) -> bool:
    """Whether the value read back is the value sent (in the kind's own sense of equal)."""
    kind = kind_of(field)
    if sent is None:
        return got in (None, "")
    if kind in ("money", "decimal", "integer", "rating", "reference"):
        try:
            return abs(float(got) - float(sent)) < 1e-6
        except (TypeError, ValueError):
            return False
    if kind == "boolean":
        return got is sent or got in ((1, "true") if sent else (0, "false"))
    if kind == "time":
        return isinstance(got, str) and got[:5] == str(sent)[:5]
    if kind == "datetime":
        return isinstance(got, str) and got.replace(" ", "T")[:16] == str(sent)[:16]
    if kind in ("enum", "email"):
        return isinstance(got, str) and got.lower() == str(sent).lower()
    return got == sent


def searchable(entity: DataEntity) -> list[EntityField]:
    """The free-text fields a search looks in."""
    return [f for f in entity.fields if kind_of(f) in TEXT_KINDS]


def first_of(entity: DataEntity, *kinds: str) -> EntityField | None:
    return next((f for f in entity.fields if kind_of(f) in kinds), None)


def slot_of(entity: DataEntity, parent_key: str | None = None) -> Slot | None:
    """The entity's booking slot by the spec's one rule (harness/constructs/slot.py); `parent_key`:
    its key of its parent (harness/constructs/parent_key.py)."""
    pairs = [(f.ident, "reference" if f.ref else "integer" if kind_of(f) == "reference" else kind_of(f))
             for f in entity.fields]
    return find_slot(pairs, (parent_key or f"{entity.parent}_id") if entity.parent else None)


def slot_value(kind: str, day: date, minute: int) -> str:
    """A slot boundary of `kind` at `minute` of `day`: the day (date), the clock time (time), or
    both (datetime)."""
    clock = f"{minute // 60:02d}:{minute % 60:02d}"
    return day.isoformat() if kind == "date" else clock if kind == "time" else f"{day.isoformat()}T{clock}:00"


def slot_span(slot: Slot, n: int) -> dict[str, str]:
    """The n-th record's own slot, overlapping no other sample record's: a date range is its own
    day, a datetime range an hour on its own day, a time-of-day range its own five minutes (the
    day may be shared: a slot without a date field)."""
    day = date(2031, 1, 1) + timedelta(days=n)
    minute = 5 * (n % 276) if slot.kind == "time" else 60 * (8 + n % 8)
    length = 5 if slot.kind == "time" else 60
    values = {slot.start: slot_value(slot.kind, day, minute)}
    if not slot.single:
        values[slot.end] = slot_value(slot.kind, day + timedelta(days=slot.kind == "date"), minute + length)
    return values


_LENGTH = {"date": timedelta(days=1), "datetime": timedelta(hours=1), "time": timedelta(minutes=5)}


def shifted(value: str, kind: str, sign: int) -> str:
    """`value` moved by one slot length (a day, an hour, five minutes) forward (1) or back (-1);
    a value that does not parse is returned as it is (the app judges it)."""
    try:
        if kind == "date":
            return (date.fromisoformat(value) + sign * _LENGTH[kind]).isoformat()
        if kind == "datetime":
            return (datetime.fromisoformat(value) + sign * _LENGTH[kind]).isoformat()
        moved = datetime.combine(date(2031, 1, 1), datetime.strptime(value[:5], "%H:%M").time()) + sign * _LENGTH[kind]
        return moved.strftime("%H:%M") if moved.date() == date(2031, 1, 1) else value
    except (TypeError, ValueError):
        return value


def slot_fill(slot: Slot, n: int, overrides: dict[str, Any]) -> dict[str, str]:
    """The slot values a body still needs besides `overrides`: the n-th record's own span, or the
    partner of an overridden start (its end one slot length later) or end (its start before)."""
    if slot.start in overrides and (slot.single or slot.end in overrides):
        return {}
    if slot.start in overrides:
        return {slot.end: shifted(str(overrides[slot.start]), slot.kind, 1)}
    if slot.end in overrides:
        return {slot.start: shifted(str(overrides[slot.end]), slot.kind, -1)}
    return slot_span(slot, n)
