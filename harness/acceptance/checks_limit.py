"""Black-box check of the `limit` feature: a record whose number equals the bound of the record it
refers to is accepted, one above it is refused (422) on create and on update, and the same value is
accepted under a record whose bound is higher — so an app that ignores the bound, or compares with
a constant, fails. The meaning comes from the spec (harness/constructs/field_limit.py)."""

from __future__ import annotations

import math

from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import kind_of
from harness.constructs.field_limit import FieldLimit, of_spec, LimitError
from harness.models.spec import DataEntity, EntityField, Feature


def _field(entity: DataEntity, ident: str) -> EntityField:
    return next(f for f in entity.fields if f.ident == ident)


def _at(limited: EntityField, bound: EntityField) -> int:
    """A value both fields allow, with room above it: the bound the check gives the record."""
    at = int(max(limited.min_value or 0, bound.min_value or 0)) + 2
    tops = [math.floor(f.max_value) - 1 for f in (limited, bound) if f.max_value is not None]
    return min([at, *tops])


def limit_holds(api: Api, entity: DataEntity, feature: Feature) -> str:
    try:
        lim: FieldLimit = of_spec(feature, entity, api.spec)
    except LimitError as exc:
        raise CheckFailed(f"{entity.name} has no limit the spec can resolve: {exc}") from None
    resource = api.spec.entity(lim.resource)
    limited, bound = _field(entity, lim.column), _field(resource, lim.bound)
    step = 1 if kind_of(limited) in ("integer", "rating") else 0.5
    at = _at(limited, bound)
    who = api.account()

    def made(value, top):
        """POST a record of `value` under a new referenced record whose bound is `top`."""
        place = api.create(resource, who, **{lim.bound: top})["id"]
        return api.call("POST", api.collection(entity), who,
                        api.body_for(entity, who, **{lim.resource_column: place, lim.column: value}))

    got = made(at, at)
    if got.status != 201:
        raise CheckFailed(f"a {entity.name} with {lim.column} {at}, equal to its {resource.name}'s "
                          f"{lim.bound} {at}, answered {got.line}, not 201")
    rid = got.body.get("id") if isinstance(got.body, dict) else None
    over = made(at + step, at)
    if over.status != 422:
        raise CheckFailed(f"a {entity.name} with {lim.column} {at + step}, above its {resource.name}'s "
                          f"{lim.bound} {at}, answered {over.status}, not 422")
    raised = api.call("PUT", f"{api.collection(entity)}/{rid}", who, {lim.column: at + step})
    if raised.status != 422:
        raise CheckFailed(f"updating a {entity.name}'s {lim.column} to {at + step}, above its "
                          f"{resource.name}'s {lim.bound} {at}, answered {raised.status}, not 422")
    higher = made(at + step, at + 1)
    if higher.status != 201:
        raise CheckFailed(f"a {entity.name} with {lim.column} {at + step} under a {resource.name} whose "
                          f"{lim.bound} is {at + 1} answered {higher.line}, not 201 — the bound is the "
                          f"{resource.name}'s own")
    return (f"{lim.column} {at} under {lim.bound} {at} → 201; {at + step} → 422 (create and update); "
            f"{at + step} under {lim.bound} {at + 1} → 201")
