"""Checks that a status moves and stays moved: "mark as complete", ordered workflows and the dates
a workflow stamps."""

from __future__ import annotations

from datetime import date

from harness.acceptance.client import Api, CheckFailed
from harness.models.spec import DataEntity

DONE_WORDS = ("done", "completed", "complete", "closed", "finished")


def _status(api: Api, path: str, who) -> str:
    got = api.expect(api.call("GET", path, who), 200, what="read the status")
    return (got.body or {}).get("status") if isinstance(got.body, dict) else None


def complete_sticks(api: Api, entity: DataEntity) -> str:
    """POST /{id}/complete completes that record (a GET says so), and only that record."""
    who = api.account()
    rec, other = api.create(entity, who), api.create(entity, who)
    path, other_path = f"{api.collection(entity)}/{rec['id']}", f"{api.collection(entity)}/{other['id']}"
    before = _status(api, path, who)
    if before in DONE_WORDS:
        raise CheckFailed(f"a new {entity.name} is already {before!r}")
    api.expect(api.call("POST", f"{path}/complete", who), 200, 201, what="complete")
    after = _status(api, path, who)
    if after == before or after not in DONE_WORDS:
        raise CheckFailed(f"after POST {path}/complete the {entity.name} reads status {after!r} (was {before!r})")
    untouched = _status(api, other_path, who)
    if untouched != before:
        raise CheckFailed(f"completing {rec['id']} changed {other['id']} too: {untouched!r}")
    return f"status {before!r} → {after!r}, read back; the other {entity.name} stays {untouched!r}"


def complete_unknown_404(api: Api, entity: DataEntity) -> str:
    path = f"{api.collection(entity)}/987654/complete"
    api.expect(api.call("POST", path, api.account()), 404, what="complete an unknown id")
    return f"POST {path} → 404"


def allowed(entity: DataEntity, state: str) -> list[str]:
    if entity.transitions:
        return list(entity.transitions.get(state, []))
    states = entity.workflow
    i = states.index(state)
    return states[i + 1:i + 2]


def workflow_moves(api: Api, entity: DataEntity) -> str:
    """A new record starts in the first state; an allowed move answers 200 and a GET shows it."""
    who = api.account()
    first = entity.workflow[0]
    rec = api.create(entity, who)
    path = f"{api.collection(entity)}/{rec['id']}"
    now = _status(api, path, who)
    if now != first:
        raise CheckFailed(f"a new {entity.name} reads status {now!r}, the workflow starts at {first!r}")
    moves = [first]
    while allowed(entity, moves[-1]) and len(moves) <= len(entity.workflow):
        nxt = allowed(entity, moves[-1])[0]
        api.expect(api.call("PUT", path, who, {"status": nxt}), 200, what=f"move {moves[-1]} → {nxt}")
        read = _status(api, path, who)
        if read != nxt:
            raise CheckFailed(f"PUT status {nxt!r} answered 200 but GET reads {read!r}")
        moves.append(nxt)
    return "moved " + " → ".join(moves) + ", each read back"


def workflow_refuses_skips(api: Api, entity: DataEntity) -> str:
    """A move the workflow does not allow is a 409 and changes nothing."""
    who = api.account()
    first = entity.workflow[0]
    bad = next((s for s in entity.workflow if s != first and s not in allowed(entity, first)), None)
    if bad is None:
        return f"every state is allowed from {first!r}: nothing to refuse"
    rec = api.create(entity, who)
    path = f"{api.collection(entity)}/{rec['id']}"
    got = api.call("PUT", path, who, {"status": bad})
    if got.status != 409:
        raise CheckFailed(f"move {first} → {bad} is not allowed: expected 409, got {got.line}")
    read = _status(api, path, who)
    if read != first:
        raise CheckFailed(f"the refused move changed the status to {read!r}")
    return f"{first} → {bad} refused (409), status stays {first!r}"


def _path_to(entity: DataEntity, state: str) -> list[str] | None:
    """The states from the first to `state` (that one last) along the allowed moves, fewest steps."""
    paths, queue = {entity.workflow[0]: []}, [entity.workflow[0]]
    while queue:
        here = queue.pop(0)
        for nxt in allowed(entity, here):
            if nxt not in paths:
                paths[nxt] = [*paths[here], nxt]
                queue.append(nxt)
    return paths.get(state)


def stamped_today(api: Api, entity: DataEntity, ident: str) -> str:
    """A stamped date is empty until the record moves into its state, then today's; a date the same
    request gives is kept."""
    state = entity.stamps[ident]
    path = _path_to(entity, state)
    if not path:
        raise CheckFailed(f"no allowed moves lead a {entity.name} to {state!r}")
    who, today = api.account(), date.today().isoformat()
    url = api.collection(entity)
    rec, given = api.create(entity, who, **{ident: None}), api.create(entity, who, **{ident: None})
    for step in path:
        got = api.expect(api.call("PUT", f"{url}/{rec['id']}", who, {"status": step}), 200, what=f"move to {step}")
        value = (got.body or {}).get(ident) if isinstance(got.body, dict) else None
        if step != state and value is not None:
            raise CheckFailed(f"{ident} reads {value!r} in {step!r}, before the {entity.name} moved to {state!r}")
    read = api.expect(api.call("GET", f"{url}/{rec['id']}", who), 200, what="read it back").body or {}
    if read.get(ident) != today:
        raise CheckFailed(f"moved to {state!r}, the {entity.name} reads {ident} {read.get(ident)!r}, not today {today}")
    for step in path[:-1]:
        api.expect(api.call("PUT", f"{url}/{given['id']}", who, {"status": step}), 200, what=f"move to {step}")
    kept = api.expect(api.call("PUT", f"{url}/{given['id']}", who, {"status": state, ident: "2024-01-02"}), 200,
                      what=f"move to {state} with a date of its own").body or {}
    if kept.get(ident) != "2024-01-02":
        raise CheckFailed(f"moved to {state!r} with {ident} 2024-01-02, it reads {kept.get(ident)!r}")
    return f"{ident} empty until {' → '.join(path)}, then {today}; a date given with the move is kept"
