"""Computed values in the generated app: `computed_values(row)` in src/api_<entity>.py (the spec's
expressions compiled to calls of the `calc_*` helpers of src/fieldtypes.py), the read-only fields
of the <Entity>Out model that every read answers with, the page's extra columns, and the generated
test that compares the app with the reference meaning (computed_expr.evaluate) on records made
relative to today."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from harness.constructs.computed_expr import Node, evaluate, kind_type, parse, to_python
from harness.offline.generator.appmodel import Entity
from harness.offline.generator.codegen import fill, lit
from harness.offline.generator.samples import sample
from harness.offline.generator.templates_dir import template

_TEST = template("api_feature_tests/computed.tmpl")
_OUT_TYPES = {"date": "str | None", "number": "int | float | None", "bool": "bool | None", "text": "str | None"}
REFERENCE_DAY = date(2024, 1, 15)   # "today" of the generated test's expectations (shifted to the real today)
OFFSETS = (-30, 30)                  # the test's two records: every date this many days from today


def parsed(e: Entity) -> list[tuple[str, Node]]:
    """(name, typed tree) of each computed value, in order."""
    names = {c.ident: t for c in e.columns if (t := kind_type(c.kind))}
    names.update({"status": "text"} if e.has_status else {})
    out = []
    for name, text in e.computed:
        node = parse(text, names)
        names[name] = node.type
        out.append((name, node))
    return out


def computed_function(e: Entity) -> str:
    """`def computed_values(row)` of src/api_<entity>.py (empty without computed values)."""
    if not e.computed:
        return ""
    read = {c.ident: f"row.get({lit(c.ident)})" for c in e.columns} | {"status": 'row.get("status")'}
    lines = ["def computed_values(row: dict[str, Any]) -> dict[str, Any]:",
             '    """' + "; ".join(f"{n} = {t}" for n, t in e.computed).replace('"', "'").replace("\\", "/") + '"""',
             "    values: dict[str, Any] = {}"]
    for name, node in parsed(e):
        lines.append(f"    values[{lit(name)}] = {to_python(node, read)}")
        read[name] = f"values[{lit(name)}]"
    lines.append("    return {key: calc_json(value) for key, value in values.items()}")
    return "\n".join(lines)


def computed_out_lines(e: Entity) -> list[str]:
    """The Out model's read-only fields and the validator that fills them from the stored row."""
    if not e.computed:
        return []
    fields = [f"    {name}: {_OUT_TYPES[node.type]} = None" for name, node in parsed(e)]
    return [*fields, "", '    @model_validator(mode="before")', "    @classmethod",
            "    def _computed(cls, data: Any) -> Any:",
            '        """Values computed from the record on every read (never stored)."""',
            "        return {**data, **computed_values(data)} if isinstance(data, dict) else data"]


def page_columns(e: Entity) -> str:
    """The Section's `computed` argument: (name, label) of each computed value."""
    return lit(tuple((name, name.replace("_", " ").capitalize()) for name, _ in e.computed))


def _inputs(e: Entity, offset: int) -> tuple[dict[str, str], dict[str, Any]]:
    """(code of each input the test sends, the same inputs as values on REFERENCE_DAY)."""
    code, values = {}, {}
    dated = [c for c in e.plain if c.kind in ("date", "datetime")]
    for k, c in enumerate(dated):   # later date columns later: a range's end stays after its start
        day = REFERENCE_DAY + timedelta(days=offset + 3 * k)
        tail = "T10:00:00" if c.kind == "datetime" else ""
        code[c.ident] = f"day({offset + 3 * k}){' + ' + lit(tail) if tail else ''}"
        values[c.ident] = day.isoformat() + tail
    for c in e.plain:
        if c.kind in ("integer", "money", "decimal", "rating"):
            values[c.ident] = sample(c, 0)
            code[c.ident] = lit(values[c.ident])
    return code, values


def _expected_code(value: Any) -> str:
    if isinstance(value, date):
        return f"day({(value - REFERENCE_DAY).days})"
    return lit(value)


def computed_test(e: Entity, mark: str) -> list[str]:
    if not e.computed:
        return []
    cases = []
    for offset in OFFSETS:
        code, values = _inputs(e, offset)
        env = {**values, "status": e.states[0] if e.has_status else None}
        expected = {}
        for name, node in parsed(e):
            env[name] = evaluate(node, env, REFERENCE_DAY)
            expected[name] = env[name]
        inputs = "{" + ", ".join(f"{lit(k)}: {v}" for k, v in code.items()) + "}"
        wanted = "{" + ", ".join(f"{lit(k)}: {_expected_code(v)}" for k, v in expected.items()) + "}"
        cases.append(f"        ({inputs},\n         {wanted}),")
    return [fill(_TEST, marks=mark, cases="\n".join(cases), first=lit(e.computed[0][0]))]
