"""An entity's columns as generated (from the spec's fields, typed by the field-kind registry) and
its date/time slot (the [start, end) range a booking occupies)."""

from __future__ import annotations

import math
from typing import Any

from harness.offline.field_kinds import KINDS, NUMBER_KINDS, UNIQUE_KINDS, kind_of_type
from harness.constructs.slot import Slot, find_slot as slot_of_fields
from harness.offline.generator.appmodel import Column
from harness.offline.generator.naming import display_text, field_ident

# Columns the generator adds itself; a spec field with one of these names is dropped.
_GENERATED_COLUMNS = {"id", "owner_id", "created_at", "status"}


def build_columns(fields: list[Any], parent_key: str | None, refs: dict[str, str],
             has_status: bool) -> tuple[Column, ...]:
    """The user's columns; a name the generator's own columns take is dropped ("status" only when
    the entity has the generated status column)."""
    taken = (set(_GENERATED_COLUMNS) - ({"status"} if not has_status else set())
             | ({parent_key} if parent_key else set()))
    out = []
    for field in fields:
        ident = field_ident(field.ident or field.name)
        if ident in taken or has_status and is_status(field):
            continue
        taken.add(ident)
        kind = field.kind or kind_of_type(field.type)
        values = tuple(dict.fromkeys(display_text(v) for v in field.enum_values if display_text(v)))
        if kind == "reference" and ident not in refs or kind == "enum" and not values:
            kind = "integer" if kind == "reference" else "short_text"
        lo, hi = field.min_value, field.max_value
        if kind == "rating":
            lo, hi = _rating_range(lo, hi)
        elif kind in NUMBER_KINDS:
            lo, hi = _number_range(kind, lo, hi)
        else:
            lo = hi = None   # only number kinds have a range (the spec file refuses one elsewhere)
        out.append(Column(ident=ident, label=display_text(field.name) or ident,
                          type=KINDS[kind].storage, required=field.required, kind=kind,
                          values=values[:50] if kind == "enum" else (), lo=lo, hi=hi,
                          ref=refs.get(ident), unique=field.unique and kind in UNIQUE_KINDS))
    return tuple(out)


def find_slot(columns: tuple[Column, ...], fk: str | None) -> Slot | None:
    """The record's date/time range; the rule is harness/constructs/slot.py (the acceptance
    checks read the same one)."""
    return slot_of_fields([(c.ident, c.kind) for c in columns], fk)


def _rating_range(lo: float | None, hi: float | None) -> tuple[int, int]:
    low = int(lo) if lo is not None and abs(lo) < 10**6 else 1
    high = int(hi) if hi is not None and abs(hi) < 10**6 else max(low, 5)
    return (low, high) if low <= high else (high, low)


def _number_range(kind: str, lo: float | None, hi: float | None) -> tuple[float | None, float | None]:
    """A number field's bounds as the generated API enforces them: bounds beyond what the kind
    stores are dropped, reversed ones swapped, a max below the kind's floor (0 for integer and
    money without a min) takes the floor as its min; the spec file refuses all of these in one line,
    a spec from elsewhere is made consistent rather than unbuildable."""
    lo, hi = (v if v is not None and abs(v) <= 1e15 else None for v in (lo, hi))
    if kind == "integer":
        lo, hi = (math.ceil(lo) if lo is not None else None), (math.floor(hi) if hi is not None else None)
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    if lo is None and hi is not None and kind in ("integer", "money") and hi < 0:
        lo = hi
    return lo, hi


def is_status(field: Any) -> bool:
    """A spec field that is the record's status: the status column of an entity with a status
    (`has_status` or "complete"), else a field of its own like any enum (any value, any move)."""
    return field_ident(field.ident or field.name) in ("status", "status_item") and bool(field.enum_values)
