"""The `limit` feature: a number field of a record is at most a number field of the record it
refers to — a booking's attendee count within its room's maximum occupancy.

    features = [{ kind = "limit", fields = ["attendee count"], options = { max = "maximum occupancy" } }]
    features = [{ kind = "limit", fields = ["attendee count"], options = { max = "room.maximum occupancy" } }]

- `fields`: the one number field that is limited (integer, money, decimal or rating).
- `max`: a number field of the record this one refers to: of the parent, else of the only
  reference field; `"<reference or parent>.<field>"` names which record when there are several.

A record without a value, or whose referenced record has no value, is not limited. Pure: the spec
reader (features.can_build), the generator and the acceptance checks all resolve a feature through
`resolve`, so they agree on what it means.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.constructs.parent_key import parent_key_of
from harness.models.spec import kind_of_type
from harness.utils.idents import field_ident

OPTIONS = ("max",)
LIMITED_KINDS = ("integer", "money", "decimal", "rating")
BOUND_KINDS = ("integer", "money", "decimal")


@dataclass(frozen=True)
class FieldLimit:
    """A resolved limit: `column` of the record is at most `bound` of the `resource` record that
    its `resource_column` (a reference field or the parent key) points at."""

    column: str
    resource: str
    resource_column: str
    bound: str


class LimitError(ValueError):
    """The feature cannot be built as written; the message says why, in one line."""


def resolve(plural: str, fields: list[str], options: dict[str, Any], own: dict[str, tuple[str, str | None]],
            parent: str | None, fields_of: Callable[[str], dict[str, str]],
            parent_key: str | None = None) -> FieldLimit:
    """The limit of an entity (`own`: field ident -> (kind, referenced entity)); LimitError naming
    what is wrong. `fields_of(entity)` gives another entity's field idents and kinds (empty for an
    unknown entity); `parent_key` the child's key of its parent (harness/constructs/parent_key.py)."""
    where = f"limit on {plural}"
    unknown = sorted(k for k in options if k not in OPTIONS)
    if unknown:
        raise LimitError(f"{where}: unknown option {unknown[0]!r} (allowed: {', '.join(OPTIONS)})")
    if len(fields) != 1:
        raise LimitError(f"{where}: fields names the one number field that is limited "
                         '(fields = ["attendee count"])')
    column = field_ident(str(fields[0]))
    if column not in own:
        raise LimitError(f"{where}: no field {str(fields[0])!r}")
    if own[column][0] not in LIMITED_KINDS:
        raise LimitError(f"{where}: {str(fields[0])!r} is a {own[column][0]} field; a limit bounds a number "
                         f"field ({', '.join(LIMITED_KINDS)})")
    wanted = options.get("max")
    if not isinstance(wanted, str) or not wanted.strip():
        raise LimitError(f'{where}: say what bounds it: options = {{ max = "<number field of the record '
                         'it refers to>" }')
    resources = _resources(own, parent, parent_key)
    record, _, name = wanted.rpartition(".")
    resource_column, resource = _resource(where, wanted, record, resources, parent)
    bound, theirs = field_ident(name), fields_of(resource)
    if theirs.get(bound) not in BOUND_KINDS:
        numbers = [i for i, k in theirs.items() if k in BOUND_KINDS]
        raise LimitError(f"{where}: max {wanted!r} is no number field of {resource} "
                         f"(its number fields: {', '.join(numbers) or 'none'})")
    return FieldLimit(column, resource, resource_column, bound)


def _resources(own: dict[str, tuple[str, str | None]], parent: str | None,
               parent_key: str | None) -> dict[str, tuple[str, str]]:
    """The records a record refers to: name -> (its column, the entity), the parent first."""
    out: dict[str, tuple[str, str]] = {}
    if parent:
        key = parent_key or f"{parent}_id"
        for name in (parent, key, key.removesuffix("_id")):
            out.setdefault(name, (key, parent))
    for ident, (kind, ref) in own.items():
        if kind == "reference" and ref:
            out.setdefault(ident, (ident, ref))
    return out


def _resource(where: str, wanted: str, record: str, resources: dict[str, tuple[str, str]],
              parent: str | None) -> tuple[str, str]:
    if record:
        found = resources.get(field_ident(record))
        if found is None:
            names = ", ".join(dict.fromkeys(c for c, _ in resources.values())) or "none"
            raise LimitError(f"{where}: max {wanted!r}: {record!r} is no reference field or parent "
                             f"(the records it refers to: {names})")
        return found
    if parent:
        return resources[parent]
    if len(resources) == 1:
        return next(iter(resources.values()))
    if not resources:
        raise LimitError(f"{where}: max {wanted!r} names a field of the record it refers to, but it has "
                         "no parent or reference field")
    raise LimitError(f"{where}: say whose field bounds it: max = \"<{'|'.join(resources)}>.{wanted}\"")


def of_spec(feature: Any, entity: Any, spec: Any) -> FieldLimit:
    """`resolve` for a spec's Feature on its DataEntity (harness/models/spec.py)."""
    def kinds(e: Any) -> dict[str, tuple[str, str | None]]:
        return {f.ident: (f.kind or ("reference" if f.ref else kind_of_type(f.type)), f.ref) for f in e.fields}

    def fields_of(ident: str) -> dict[str, str]:
        other = spec.entity(ident)
        return {k: v[0] for k, v in kinds(other).items()} if other is not None else {}

    return resolve(entity.plural, list(feature.fields), dict(feature.options), kinds(entity), entity.parent,
                   fields_of, parent_key_of(spec, entity))


def spec_limits(spec: Any) -> list[tuple[Any, FieldLimit]]:
    """Every (entity, limit) the spec gives that resolves."""
    out = []
    for feature in spec.features:
        entity = spec.entity(feature.entity) if feature.kind == "limit" and feature.entity else None
        if entity is None:
            continue
        try:
            out.append((entity, of_spec(feature, entity, spec)))
        except LimitError:
            continue
    return out


def bound_fields(spec: Any, entity_ident: str) -> set[str]:
    """The fields of an entity that bound another entity's limit (a room's maximum occupancy)."""
    return {lim.bound for _, lim in spec_limits(spec) if lim.resource == entity_ident}
