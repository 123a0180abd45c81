"""Dates a workflow stamps: `stamp = { "<date field>" = "<state>" }` on an entity with a workflow.
When a record's status moves into the state, the server sets the date field to today's date unless
the same request gives one, so a "completed on" date needs no typing and a period summary can count
records by it:

    [[entities]]
    name = "task"
    workflow = ["to do", "doing", "done"]
    fields = ["title", { name = "completed on", kind = "date" }]
    stamp = { "completed on" = "done" }
    features = [{ kind = "period_summary", options = { date = "completed on" } }]

Every error is one line naming the file, line and key (the reader's `fail`).
"""

from __future__ import annotations

from typing import Any

from harness.models.spec import DataEntity, EntityField
from harness.offline.field_kinds import kind_of_type
from harness.offline.generator.naming import field_ident

STAMP_KEY = "stamp"


def read_stamps(reader: Any, raw: dict, i: int, where: str, fields: list[EntityField],
                workflow: list[str]) -> dict[str, str]:
    """{date field ident: state} of the entity's `stamp` table ({} without one)."""
    table = reader.typed(raw, STAMP_KEY, dict, where, i) or {}
    if table and not workflow:
        reader.fail(f"{where}.{STAMP_KEY}", "needs a workflow: the date is set when the status moves",
                    STAMP_KEY, i)
    by_ident = {f.ident: f for f in fields}
    out: dict[str, str] = {}
    for name, state in table.items():
        field = by_ident.get(field_ident(str(name)))
        if field is None:
            reader.fail(f"{where}.{STAMP_KEY}", f"no field {name!r}", STAMP_KEY, i)
        kind = field.kind or kind_of_type(field.type)
        if kind != "date":
            reader.fail(f"{where}.{STAMP_KEY}", f"{name!r} is of kind {kind}; a stamp sets a date field",
                        STAMP_KEY, i)
        if field.required:
            reader.fail(f"{where}.{STAMP_KEY}", f"{name!r} is required, so it is given before any move; "
                        "a stamped date is optional", STAMP_KEY, i)
        if not isinstance(state, str) or state not in workflow[1:]:
            reader.fail(f"{where}.{STAMP_KEY}", f"{name!r}: {state!r} is not a later state of the workflow "
                        f"(states after the first: {', '.join(workflow[1:])})", STAMP_KEY, i)
        out[field.ident] = state
    return out


def stamp_items(e: DataEntity) -> list[tuple[str, str | None, str, str]]:
    """Requirements (capability, entity, text, source) of the entity's stamped dates."""
    names = {f.ident: f.name for f in e.fields}
    return [("workflow", e.ident, f"A {e.name}'s {names[ident]} is set to the day it moves to {state}",
             f"{e.name}.stamp {ident}") for ident, state in e.stamps.items()]
