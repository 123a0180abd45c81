"""The `capacity` feature: at most `limit` records of an entity hold the same place at once.

    features = [{ kind = "capacity", fields = ["tool"], options = { limit = 1, while = ["out"] } }]

- `fields`: the columns two records share to hold the same place: a reference field or the
  parent's name (the resource), optionally with a date, a time or a choice ("per day"). Default:
  the parent, else the only reference field.
- `limit`: a whole number (default 1), or the name of a number field of the entity the first
  reference (or the parent) points at: `limit = "seats"` (a room's own capacity).
- `while`: the workflow states in which a record holds its place (default: every state): a loan
  returned frees its tool.

Pure: the spec reader (features.can_build), the generator and the acceptance checks all resolve a
feature through `resolve`, so they agree on what it means.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.models.spec import kind_of_type
from harness.constructs.holding import HoldingError, entity_states, holding_states
from harness.constructs.parent_key import parent_key_of
from harness.utils.idents import field_ident



MAX_LIMIT = 1000     # the generated test fills a place to its limit
OPTIONS = ("limit", "while")
_PLACE_KINDS = ("reference", "date", "time", "datetime", "enum", "short_text", "integer", "boolean")
_LIMIT_KINDS = ("integer",)


@dataclass(frozen=True)
class Capacity:
    """A resolved capacity: the place's columns (the parent as `<parent>_id`), the fixed limit or
    the resource's limit column, and the holding states (empty: every record holds its place)."""

    columns: tuple[str, ...]
    limit: int | None
    limit_column: str | None
    resource: str | None          # the entity the first reference column (or the parent) points at
    resource_column: str | None   # that column
    states: tuple[str, ...]


class CapacityError(ValueError):
    """The feature cannot be built as written; the message says why, in one line."""


def resolve(plural: str, fields: list[str], options: dict[str, Any], own: dict[str, tuple[str, str | None]],
            parent: str | None, states: tuple[str, ...],
            fields_of: Callable[[str], dict[str, str]], parent_key: str | None = None) -> Capacity:
    """The capacity of an entity (`own`: field ident -> (kind, referenced entity)); CapacityError
    naming what is wrong. `fields_of(entity)` gives another entity's field idents and kinds;
    `parent_key` the child's key of its parent (harness/constructs/parent_key.py)."""
    where = f"capacity on {plural}"
    unknown = sorted(k for k in options if k not in (*OPTIONS, "fields"))
    if unknown:
        raise CapacityError(f"{where}: unknown option {unknown[0]!r} (allowed: {', '.join(OPTIONS)})")
    fk = (parent_key or f"{parent}_id") if parent else None
    columns = [_column(where, f, own, parent, fk) for f in fields] or _default(where, own, fk)
    if len(set(columns)) != len(columns):
        raise CapacityError(f"{where}: a field is named twice in fields")
    resource_column = next((c for c in columns if c == fk or own.get(c, ("", None))[0] == "reference"), None)
    resource = parent if resource_column == fk and fk else own[resource_column][1] if resource_column else None
    limit, limit_column = _limit(where, options.get("limit", 1), resource, fields_of)
    return Capacity(tuple(columns), limit, limit_column, resource, resource_column,
                    _states(where, options.get("while"), states))


def _column(where: str, name: Any, own: dict[str, tuple[str, str | None]], parent: str | None,
            fk: str | None) -> str:
    ident = field_ident(str(name))
    if parent and fk and ident in (parent, f"{parent}_id", fk, fk.removesuffix("_id")):
        return fk
    if ident not in own:
        raise CapacityError(f"{where}: no field {str(name)!r}")
    if own[ident][0] not in _PLACE_KINDS:
        raise CapacityError(f"{where}: {str(name)!r} is a {own[ident][0]} field; a place is a reference, "
                            "the parent, a date, a time or a choice")
    return ident


def _default(where: str, own: dict[str, tuple[str, str | None]], fk: str | None) -> list[str]:
    refs = [i for i, (kind, _) in own.items() if kind == "reference"]
    if fk:
        return [fk]
    if len(refs) == 1:
        return refs
    raise CapacityError(f"{where}: say whose places are counted: fields = [\"<reference field>\"]")


def _limit(where: str, limit: Any, resource: str | None,
           fields_of: Callable[[str], dict[str, str]]) -> tuple[int | None, str | None]:
    if isinstance(limit, bool) or not isinstance(limit, (int, str)):
        raise CapacityError(f"{where}: limit must be a whole number or the name of a number field")
    if isinstance(limit, int):
        if not 1 <= limit <= MAX_LIMIT:
            raise CapacityError(f"{where}: limit must be between 1 and {MAX_LIMIT}, not {limit}")
        return limit, None
    if resource is None:
        raise CapacityError(f"{where}: limit {limit!r} names a field of the resource, but fields has no "
                            "reference or parent")
    ident, theirs = field_ident(limit), fields_of(resource)
    if theirs.get(ident) not in _LIMIT_KINDS:
        numbers = [i for i, k in theirs.items() if k in _LIMIT_KINDS]
        raise CapacityError(f"{where}: limit {limit!r} is no whole-number field of {resource} "
                            f"(its whole-number fields: {', '.join(numbers) or 'none'})")
    return None, ident


def _states(where: str, wanted: Any, states: tuple[str, ...]) -> tuple[str, ...]:
    try:
        return holding_states(where, wanted, states)
    except HoldingError as exc:
        raise CapacityError(str(exc)) from None


def of_spec(feature: Any, entity: Any, spec: Any) -> Capacity:
    """`resolve` for a spec's Feature on its DataEntity (harness/models/spec.py)."""
    def kinds(e: Any) -> dict[str, tuple[str, str | None]]:
        return {f.ident: (f.kind or ("reference" if f.ref else kind_of_type(f.type)), f.ref) for f in e.fields}

    def fields_of(ident: str) -> dict[str, str]:
        other = spec.entity(ident)
        return {k: v[0] for k, v in kinds(other).items()} if other is not None else {}

    states = entity_states(entity)
    return resolve(entity.plural, list(feature.fields), dict(feature.options), kinds(entity), entity.parent,
                   states, fields_of, parent_key_of(spec, entity))


def spec_capacity(spec: Any, entity: Any) -> Capacity | None:
    """The entity's capacity when the spec gives it one it can resolve (None otherwise)."""
    feature = next((f for f in spec.features if f.entity == entity.ident and f.kind == "capacity"), None)
    try:
        return of_spec(feature, entity, spec) if feature is not None else None
    except CapacityError:
        return None
