"""Black-box check of the `capacity` feature: a fresh place filled up to its limit accepts each
record, one more is refused with 409, and once a place frees up (a record deleted, or moved out of
the holding states) it is taken again. The meaning comes from the spec (harness/constructs/capacity.py)."""

from __future__ import annotations

from harness.acceptance.checks_flow import allowed
from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.checks_booking_users import second_account
from harness.models.spec import DataEntity, Feature
from harness.constructs.capacity import Capacity, spec_capacity

TESTED_LIMIT = 2   # a resource whose capacity is one of its fields gets this many places


def capacity_of(api: Api, entity: DataEntity) -> Capacity | None:
    """The entity's capacity when the spec gives it one (None otherwise)."""
    return spec_capacity(api.spec, entity)


def state_path(entity: DataEntity, start: str, holds: bool, states: tuple[str, ...]) -> list[str] | None:
    """The moves from `start` to a state that holds (or frees) a place; None when none is reachable."""
    seen, todo = {start: []}, [start]
    while todo:
        state = todo.pop(0)
        if (state in states) == holds:
            return seen[state]
        for nxt in (allowed(entity, state) if entity.workflow else [s for s in ("open", "done") if s != state]):
            if nxt not in seen:
                seen[nxt] = [*seen[state], nxt]
                todo.append(nxt)
    return None


def _take(api: Api, entity: DataEntity, who, body: dict, cap: Capacity, first: str) -> tuple[int, object]:
    """POST the record, then move it into a holding state when it does not start in one:
    (the status of the answer that decides, the new record's id or None)."""
    got = api.call("POST", api.collection(entity), who, body)
    if not cap.states or first in cap.states or got.status != 201:
        return got.status, (got.body or {}).get("id") if isinstance(got.body, dict) else None
    rid = got.body.get("id")
    for state in state_path(entity, first, True, cap.states) or []:
        moved = api.call("PUT", f"{api.collection(entity)}/{rid}", who, {"status": state})
        if moved.status != 200:
            return moved.status, rid
    return 201, rid


def capacity_holds(api: Api, entity: DataEntity, feature: Feature) -> str:
    cap = capacity_of(api, entity)
    if cap is None:
        raise CheckFailed(f"{entity.name} has no capacity the spec can resolve")
    who = api.account()
    place = {}
    limit = cap.limit
    if cap.resource_column:
        target = api.spec.entity(cap.resource)
        extra = {cap.limit_column: TESTED_LIMIT} if cap.limit_column else {}
        place[cap.resource_column] = api.create(target, who, **extra)["id"]
        limit = TESTED_LIMIT if cap.limit_column else limit
    body = api.body_for(entity, who, **place)
    first = entity.workflow[0] if entity.workflow else "open"
    held = []
    for n in range(limit):
        status, rid = _take(api, entity, who, body, cap, first)
        if status != 201:
            raise CheckFailed(f"place {n + 1} of {limit} was refused: {status}")
        held.append(rid)
    status, _ = _take(api, entity, who, body, cap, first)
    if status != 409:
        raise CheckFailed(f"a {entity.name} beyond the capacity of {limit} answered {status}, not 409")
    other = _another_user(api, entity, cap)
    if other is not None:   # everyone's records count: a second user finds the place full too
        status, _ = _take(api, entity, other, api.body_for(entity, other, **_place_of(body, cap)), cap, first)
        if status != 409:
            raise CheckFailed(f"a second user's {entity.name} beyond the capacity of {limit} answered {status}, "
                              "not 409 — every user's records must count")
    item = f"{api.collection(entity)}/{held[0]}"
    if cap.states:
        path = state_path(entity, _status(api, item, who) or first, False, cap.states)
        if path is None:
            raise CheckFailed(f"no workflow move frees a {entity.name}'s place")
        for state in path:
            api.expect(api.call("PUT", item, who, {"status": state}), 200, what=f"free a place: move to {state}")
        freed = f"moved to {path[-1]}"
    else:
        api.expect(api.call("DELETE", item, who), 204, 200, what="free a place: delete")
        freed = "deleted"
    status, _ = _take(api, entity, who, body, cap, first)
    if status != 201:
        raise CheckFailed(f"after one {entity.name} was {freed}, the freed place was refused: {status}")
    also = " (another user's too)" if other is not None else ""
    return f"{limit} accepted, one more → 409{also}, one {freed} → the place is taken again"


def _status(api: Api, item: str, who) -> str | None:
    got = api.call("GET", item, who)
    return got.body.get("status") if isinstance(got.body, dict) else None


def _place_of(body: dict, cap: Capacity) -> dict:
    return {c: body[c] for c in cap.columns if c in body}



def _another_user(api: Api, entity: DataEntity, cap: Capacity):
    """A second account when the app has accounts and every user may take the place (a member
    makes the record and the rest of its body; each referenced part of the place is shared)."""
    second = second_account(api, entity, cap.columns)
    return second[0] if second is not None and second[1] else None
