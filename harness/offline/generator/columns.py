"""An entity's columns as generated (from the spec's fields, typed by the field-kind registry) and
its date/time slot (the [start, end) range a booking occupies)."""

from __future__ import annotations

from typing import Any

from harness.offline.field_kinds import KINDS, kind_of_type
from harness.constructs.slot import Slot, find_slot as slot_of_fields
from harness.offline.generator.appmodel import Column
from harness.offline.generator.naming import display_text, field_ident

# Kinds a `unique` flag is honoured for (the generated tests can make distinct values of them).
UNIQUE_KINDS = ("short_text", "long_text", "email", "url", "phone", "integer")
# Columns the generator adds itself; a spec field with one of these names is dropped.
_GENERATED_COLUMNS = {"id", "owner_id", "created_at", "status"}


def build_columns(fields: list[Any], parent: str | None, refs: dict[str, str],
             has_status: bool) -> tuple[Column, ...]:
    """The user's columns; a name the generator's own columns take is dropped ("status" only when
    the entity has the generated status column)."""
    taken = (set(_GENERATED_COLUMNS) - ({"status"} if not has_status else set())
             | ({f"{parent}_id"} if parent else set()))
    out = []
    for field in fields:
        ident = field_ident(field.ident or field.name)
        if ident in taken or is_status(field):
            continue
        taken.add(ident)
        kind = field.kind or kind_of_type(field.type)
        values = tuple(dict.fromkeys(display_text(v) for v in field.enum_values if display_text(v)))
        if kind == "reference" and ident not in refs or kind == "enum" and not values:
            kind = "integer" if kind == "reference" else "short_text"
        lo, hi = field.min_value, field.max_value
        if kind == "rating":
            lo, hi = _rating_range(lo, hi)
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


def is_status(field: Any) -> bool:
    """A spec field that is the record's status (it becomes the status column, not a field)."""
    return field_ident(field.ident or field.name) in ("status", "status_item") and bool(field.enum_values)
