"""The `capacity` feature in the generated app: the whole-record check of src/api_<entity>.py (one
more record holding a full place is a 409) and its generated test (fill the place, one more is
refused, free a place — the record deleted, or moved out of the holding states — and it is taken
again). What the feature means is harness/constructs/capacity.py."""

from __future__ import annotations

from harness.constructs.capacity import Capacity, CapacityError, resolve
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import fill, lit
from harness.offline.generator.templates_dir import template

_TEST = template("api_feature_tests/capacity.tmpl")
MAX_TESTED_LIMIT = 5   # the generated test gives a resource with a limit field this many places


def capacity_of(app: AppModel, e: Entity) -> Capacity | None:
    """The entity's resolved capacity; None without the feature."""
    if not e.has("capacity"):
        return None
    options = dict(e.feature("capacity"))
    fields = options.pop("fields", None) or []
    own = {c.ident: (c.kind, c.ref) for c in e.columns}
    try:
        return resolve(e.plural, fields, options, own, e.parent, e.states if e.has_status else (),
                       lambda ident: {c.ident: c.kind for c in app.entity(ident).columns}, e.fk)
    except CapacityError:   # the spec reader refused it already; a rule-built spec may not say it
        return None


def _label(app: AppModel, e: Entity, cap: Capacity) -> str:
    if cap.resource:
        return app.entity(cap.resource).name
    names = {c.ident: c.label for c in e.columns}
    return " and ".join(names.get(c, c) for c in cap.columns)


def capacity_lines(app: AppModel, e: Entity) -> list[str]:
    """The lines of _check_row(db, row, owner_id, row_id) that refuse one record too many."""
    cap = capacity_of(app, e)
    if cap is None:
        return []
    place = "{" + ", ".join(f"{lit(c)}: row.get({lit(c)})" for c in cap.columns) + "}"
    holds = "None not in place.values()"
    if cap.states:
        holds += f" and (row.get(\"status\") or {lit(e.states[0])}) in {lit(cap.states)}"
    message = f"no place left: that {_label(app, e, cap)} is full (capacity {{limit}})"
    if cap.limit is not None:
        limit, known = f"limit = {cap.limit}", ""
    else:
        limit = (f"limit = TABLES[{lit(cap.resource)}].value(db, row[{lit(cap.resource_column)}], "
                 f"{lit(cap.limit_column)})")
        known = "limit is not None and "
    return [f"place = {place}", f"if {holds}:", f"    {limit}",
            f"    if {known}TABLE.taken(db, place, {lit(cap.states)}, row_id) >= limit:",
            f"        raise HTTPException(409, f{lit(message)})"]


def resource_line(cap: Capacity) -> str:
    """The generated test's line that gives `body` a place of its own: a new resource (with
    MAX_TESTED_LIMIT places when its limit is a field); empty when the place has no resource."""
    if not cap.resource_column:
        return ""
    limit = cap.limit if cap.limit is not None else MAX_TESTED_LIMIT
    extra = f", **{{{lit(cap.limit_column)}: {limit}}}" if cap.limit_column else ""
    return f"body[{lit(cap.resource_column)}] = create_{cap.resource}(client, headers{extra})"


def state_moves(e: Entity, start: str, holds: bool, states: tuple[str, ...]) -> list[str] | None:
    """The status moves from `start` to a state that holds (or frees) a place; None when none is reachable."""
    moves, seen, todo = dict(e.transitions), {start: []}, [start]
    while todo:
        state = todo.pop(0)
        if (state in states) == holds:
            return seen[state]
        for nxt in moves.get(state, ()):
            if nxt not in seen:
                seen[nxt] = seen[state] + [nxt]
                todo.append(nxt)
    return None


def capacity_test(app: AppModel, e: Entity, mark: str) -> list[str]:
    """test_capacity_refuses_one_more_until_a_place_frees_up: a record takes a place when it is made
    (or moved into a holding state); one is freed by a delete or a move out of the holding states."""
    cap = capacity_of(app, e)
    if cap is None:
        return []
    limit = cap.limit if cap.limit is not None else MAX_TESTED_LIMIT
    make = resource_line(cap)
    first = e.states[0]
    hold = state_moves(e, first, True, cap.states) if cap.states else []
    held_state = hold[-1] if hold else first
    free = state_moves(e, held_state, False, cap.states) if cap.states else []
    if hold is None or free is None:
        return []
    take = [f'moved = client.put(f"{{URL}}/{{made.json()[\'id\']}}", json={{"status": {lit(m)}}}, headers=headers)'
            for m in hold]
    take = (["if made.status_code != 201:", "    return made, None"] +
            [line for m_line in take for line in (m_line, "if moved.status_code != 200:",
                                                   "    return moved, made.json()['id']")]) if take else []
    frees = ([f'assert client.put(f"{{URL}}/{{held[0]}}", json={{"status": {lit(m)}}}, '
              "headers=headers).status_code == 200" for m in free]
             if cap.states else ['assert client.delete(f"{URL}/{held[0]}", headers=headers).status_code == 204'])
    return [fill(_TEST, marks=mark, make=make, limit=str(limit), free="\n".join(frees),
                 take="\n".join(take))]
