"""The `limit` feature in the generated app: the lines of src/api_<entity>.py's _check_row that
refuse a number above the referenced record's bound (422, naming both fields), its generated test,
and the samples that keep every other test inside the bound. What the feature means is
harness/constructs/field_limit.py."""

from __future__ import annotations

from dataclasses import replace

from harness.constructs.field_limit import FieldLimit, LimitError, resolve
from harness.offline.generator.appmodel import AppModel, Column, Entity
from harness.offline.generator.codegen import fill, lit
from harness.offline.generator.templates_dir import template

_TEST = template("api_feature_tests/limit.tmpl")
ROOMY = 1_000_000   # a bound column's sample when it has no `max`: every other test's value fits under it


def limit_of(app: AppModel, e: Entity) -> FieldLimit | None:
    """The entity's resolved limit; None without the feature."""
    return _resolved(e, lambda ident: app.entity(ident).columns) if e.has("limit") else None


def _resolved(e: Entity, columns_of) -> FieldLimit | None:
    options = dict(e.feature("limit"))
    fields = options.pop("fields", None) or []
    own = {c.ident: (c.kind, c.ref) for c in e.columns}
    try:
        return resolve(e.plural, fields, options, own, e.parent,
                       lambda ident: {c.ident: c.kind for c in columns_of(ident)}, e.fk)
    except (LimitError, StopIteration, KeyError):   # the spec reader refused it already
        return None


def roomy_bounds(entities: dict[str, Entity]) -> dict[str, Entity]:
    """The entities with each limit's bound column marked `roomy` (its samples sit at the top of
    its range), so that a test that makes a record with sample values stays within the bound."""
    marked: dict[str, set[str]] = {}
    for e in entities.values():
        if e.has("limit"):
            lim = _resolved(e, lambda ident: entities[ident].columns)
            if lim is not None:
                marked.setdefault(lim.resource, set()).add(lim.bound)
    return {ident: replace(e, columns=tuple(replace(c, roomy=True) if c.ident in marked.get(ident, ()) else c
                                            for c in e.columns)) for ident, e in entities.items()}


def roomy_sample(column: Column, variant: int) -> float:
    """A bound column's sample: its `max` (less the variant), else ROOMY plus the variant."""
    if column.hi is not None and (column.lo is None or column.hi - variant >= column.lo):
        value = column.hi - variant
    else:
        value = ROOMY + variant
    return int(value) if column.kind == "integer" else float(value)


def _labels(app: AppModel, e: Entity, lim: FieldLimit) -> tuple[str, str]:
    resource = app.entity(lim.resource)
    bound = next((c.label for c in resource.columns if c.ident == lim.bound), lim.bound)
    return resource.name, bound


def limit_lines(app: AppModel, e: Entity) -> list[str]:
    """The lines of _check_row(db, row, owner_id, row_id) that refuse a value above the bound."""
    lim = limit_of(app, e)
    if lim is None:
        return []
    resource, bound = _labels(app, e, lim)
    message = f"{lim.column}: {{value}} is more than the {resource}'s {bound} ({{bound}})"
    return [f"value = row.get({lit(lim.column)})",
            f"bound = TABLES[{lit(lim.resource)}].value(db, row.get({lit(lim.resource_column)}), {lit(lim.bound)})",
            "if value is not None and bound is not None and value > bound:",
            f"    raise HTTPException(422, f{lit(message)})"]


def limit_test(app: AppModel, e: Entity, mark: str) -> list[str]:
    """test_limit_refuses_a_value_above_the_referenced_bound: at the bound 201, one above it 422 (on
    create and on update), and a record whose bound is higher takes the same value."""
    lim = limit_of(app, e)
    if lim is None:
        return []
    column = next(c for c in e.columns if c.ident == lim.column)
    step = "1" if column.kind in ("integer", "rating") else "0.5"
    bound = next(c for c in app.entity(lim.resource).columns if c.ident == lim.bound)
    at = int(max(column.lo or 0, bound.lo or 0)) + 2
    tops = [int(c.hi) - 1 for c in (column, bound) if c.hi is not None]
    at = min([at, *tops])
    return [fill(_TEST, marks=mark, column=lit(lim.column), key=lit(lim.resource_column),
                 resource=lim.resource, bound=lit(lim.bound), at=str(at), step=step)]
