"""Sample values shared by the generated tests, the seeded dashboard and the runtime probes."""

from __future__ import annotations

from typing import Any

from harness.offline.generator.appmodel import Column, Entity
from harness.offline.generator.limit_check import roomy_sample


def sample(column: Column, variant: int = 0) -> Any:
    """A valid JSON value for `column` (variant 1 differs from variant 0); None for references."""
    if column.roomy:
        return roomy_sample(column, variant)
    return column.entry.sample(column.bounds, variant, end=column.end)


def distinct(column: Column, counter: str) -> str:
    """An expression: the column's sample made distinct by the integer expression `counter`."""
    value = sample(column)
    if column.kind == "integer" and column.hi is not None:   # stays inside the field's range
        return f"{value!r} + ({counter}) % {int(column.hi) - value + 1}"
    if column.kind == "integer":
        return f"{value!r} + {counter}"
    if column.kind == "email":
        return f'"u" + str({counter}) + "." + {value!r}'
    if column.kind == "url":
        return f'{value!r} + "/" + str({counter})'
    if column.kind == "phone":
        return f"{value!r} + str({counter})"
    return f'{value!r} + " " + str({counter})'


def body(entity: Entity, full: bool = True) -> dict[str, Any]:
    """A valid create body without the parent FK and references: every constant column, or only
    the required ones."""
    return {c.ident: sample(c) for c in entity.plain if full or c.required}
