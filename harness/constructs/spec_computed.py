"""Computed values in a spec file: `computed` on an entity names values worked out from the
record on every read (never stored, never written by a client).

    [[entities]]
    name = "plant"
    fields = [{ name = "last watered", kind = "date" }, { name = "interval days", kind = "integer" }]
    computed = { next_watering = "last_watered + interval_days days", thirsty = "next_watering <= today" }

The expression language is harness/constructs/computed_expr.py; names are the fields' JSON names,
`status`, and the computed values named before.
"""

from __future__ import annotations

import keyword
import re
from typing import Any

from harness.models.spec import DataEntity, EntityField
from harness.constructs.computed_expr import ExprError, kind_type, parse
from harness.models.spec import kind_of_type

MAX_COMPUTED = 20
_NAME = re.compile(r"[a-z][a-z0-9_]{0,40}$")
_TAKEN = {"id", "owner_id", "created_at", "status", "assigned_to"}
_MODEL_WORDS = {"copy", "dict", "json", "schema", "construct", "validate", "fields", "parse_obj", "from_orm",
                "parse_raw", "parse_file", "schema_json", "update_forward_refs", "values", "row", "data", "cls"}


def names_of(fields: list[EntityField], status: bool) -> dict[str, str]:
    """The names an expression may use (field JSON name -> type), without the computed ones."""
    out = {}
    for f in fields:
        kind = f.kind or ("reference" if f.ref else kind_of_type(f.type))
        typ = kind_type(kind)
        if typ:
            out[f.ident] = typ
    return {**out, **({"status": "text"} if status else {})}


def read_computed(reader: Any, raw: dict, i: int, where: str, fields: list[EntityField],
                  status: bool, many: list[str]) -> dict[str, str]:
    """name -> expression, each name new and each expression valid; one-line errors otherwise."""
    table = reader.typed(raw, "computed", dict, where, i) or {}
    if len(table) > MAX_COMPUTED:
        reader.fail(f"{where}.computed", f"{len(table)} computed values; at most {MAX_COMPUTED}", "computed", i)
    names = names_of(fields, status)
    taken = _TAKEN | {f.ident for f in fields} | set(many)
    for name, text in table.items():
        at = f"{where}.computed.{name}"
        if not _NAME.match(name):
            reader.fail(at, "a computed name is lower-case letters, digits and _ (like next_watering)", name, i)
        if keyword.iskeyword(name) or name.startswith("model_") or name in _MODEL_WORDS:
            reader.fail(at, f"{name!r} is a word of the generated code; choose another name", name, i)
        if name in taken:
            reader.fail(at, f"{name!r} is already a field of the entity", name, i)
        if not isinstance(text, str):
            reader.fail(at, "must be an expression in a string", name, i)
        try:
            names[name] = parse(text, names).type
        except ExprError as exc:
            reader.fail(at, f"{exc} in {text!r}", name, i)
    return dict(table)


def computed_items(e: DataEntity) -> list[tuple[str, str | None, str, str]]:
    if not e.computed:
        return []
    shown = ", ".join(n.replace("_", " ") for n in e.computed)
    return [("computed", e.ident, f"{e.plural.capitalize()} show values computed from each record: {shown}",
             f"{e.name}.computed")]
