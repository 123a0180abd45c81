"""Checks of the feature registry's behaviours: search and filters return exactly the matching
records, sort orders them, totals and per-status counts add up, CSV export holds the record,
no double booking refuses an overlapping slot, newest first lists the newest first."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from typing import Any

from harness.constructs.parent_key import parent_key_of
from harness.acceptance.checks_access import period_summary
from harness.acceptance.checks_booking_users import other_user_clash
from harness.acceptance.checks_capacity import capacity_holds, state_path
from harness.acceptance.checks_limit import limit_holds
from harness.acceptance.checks_data import refuses_unknown_query, unknown_query_name
from harness.acceptance.checks_flow import allowed
from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import (first_of, kind_of, place, same, searchable, slot_of, slot_value, sort_choices,
                                        summed_values, valid_value)
from harness.constructs.holding import HoldingError, booking_states, entity_states
from harness.constructs.slot import Slot
from harness.models.spec import DataEntity, EntityField, Feature


def _ids(items: list[dict]) -> list:
    return [i.get("id") for i in items]


def search_exact(api: Api, entity: DataEntity, feature: Feature) -> str:
    fields = searchable(entity)
    if not fields:
        raise CheckFailed(f"{entity.name} has no text field to search")
    who = api.account()
    word = api.phrases.word()   # a word no other value of the run holds
    hit = api.create(entity, who, **{fields[0].ident: api.phrases.text_with(word)})
    api.create(entity, who)
    found = api.listed(api.collection(entity), who, {"q": word.upper()})
    if set(_ids(found)) != {hit["id"]}:
        raise CheckFailed(f"?q={word.upper()} returned {_ids(found)}; only {hit['id']} contains it")
    return f"?q={word.upper()} returns exactly the one matching {entity.name}"


# A bare filter filters every field of these kinds (docs/spec-language.md, "Features"); the check
# tries a choice first, then the parent, then the first date, number or exact-text field. The list
# route's own parameters are no filters.
_RANGE_OR_TEXT_FILTERS = ("date", "datetime", "integer", "money", "decimal", "rating",
                          "short_text", "email", "phone", "url")
_LIST_PARAMS = {"q", "sort", "order", "limit", "offset", "db", "user"}


def _filter_fields(api: Api, entity: DataEntity, feature: Feature) -> list[str]:
    if feature.fields:
        return list(feature.fields)   # every field it names (not the first two only)
    for kinds in (("enum",), ("reference",), ("boolean",)):
        f = first_of(entity, *kinds)
        if f is not None:
            return [f.ident]
    if entity.parent:
        return [parent_key_of(api.spec, entity)]
    # an entity of dates, amounts and text only ("date, time, description, amount"): its first one
    f = next((f for f in entity.fields if kind_of(f) in _RANGE_OR_TEXT_FILTERS and f.ident not in _LIST_PARAMS), None)
    return [f.ident] if f is not None else []


def filter_exact(api: Api, entity: DataEntity, feature: Feature) -> str:
    who = api.account()
    done = []
    for ident in _filter_fields(api, entity, feature):
        field = next((f for f in entity.fields if f.ident == ident), None)
        if field is None and ident == "status" and entity.workflow:
            done.append(_filter_by_status(api, entity, who))
            continue
        kind = kind_of(field) if field else "reference"
        if kind in ("date", "datetime", "integer", "money", "decimal", "rating", "time"):
            low = api.create(entity, who, **{ident: valid_value(field, 1, api.phrases)})
            high = api.create(entity, who, **{ident: valid_value(field, 3, api.phrases)})
            got = _ids(api.listed(api.collection(entity), who, {f"{ident}_min": high[ident]}))
            if high["id"] not in got or low["id"] in got:
                raise CheckFailed(f"?{ident}_min={high[ident]} returned {got}: want {high['id']} in, {low['id']} out")
            done.append(f"{ident}_min")
            continue
        if field is None or kind == "reference":   # two records pointing at two different ones
            target = api.spec.entity(field.ref if field is not None else entity.parent)
            one, two = (api.create(entity, who, **{ident: api.create(target, who)["id"]}) for _ in range(2))
        else:
            one, two = api.create(entity, who), api.create(entity, who)
        if field is not None and kind not in ("reference",):
            other = next((v for v in (valid_value(field, n, api.phrases) for n in range(1, 6))
                          if not same(field, one[ident], v)), None)
            api.expect(api.call("PUT", f"{api.collection(entity)}/{two['id']}", who, {ident: other}), 200,
                       what=f"set {ident} of the second record")
            two[ident] = other
        value = one[ident]
        found = api.listed(api.collection(entity), who, {ident: str(value).lower() if isinstance(value, bool) else value})
        wrong = [i.get("id") for i in found if field is not None and not same(field, value, i.get(ident))
                 or field is None and i.get(ident) != value]
        if one["id"] not in _ids(found) or two["id"] in _ids(found) or wrong:
            raise CheckFailed(f"?{ident}={value} returned {_ids(found)}: want {one['id']} in, {two['id']} and "
                              f"every other value out")
        done.append(ident)
    if not done:
        raise CheckFailed(f"no field of {entity.name} to filter on")
    first = _filter_fields(api, entity, feature)[0]
    typo = unknown_query_name(entity, first[:-2] + first[-1] + first[-2] if len(first) > 1 else first * 2)
    refused = refuses_unknown_query(api, entity, typo)
    return "filters return exactly the matching records: " + ", ".join(done) + f"; misspelt {refused}"


def _filter_by_status(api: Api, entity: DataEntity, who) -> str:
    """?status=<first state> lists a new record and not one moved on to the next state."""
    first = entity.workflow[0]
    nxt = next(iter(allowed(entity, first)), None)
    if nxt is None:
        return "status (no move from the first state: nothing to tell apart)"
    stays, moved = api.create(entity, who), api.create(entity, who)
    api.expect(api.call("PUT", f"{api.collection(entity)}/{moved['id']}", who, {"status": nxt}), 200,
               what=f"move the second record to {nxt}")
    got = _ids(api.listed(api.collection(entity), who, {"status": first, "limit": 500}))
    if stays["id"] not in got or moved["id"] in got:
        raise CheckFailed(f"?status={first} returned {got}: want {stays['id']} in, {moved['id']} ({nxt}) out")
    return "status"


# The field a bare `sort` is checked by (docs/spec-language.md, "Features"): the entity's first
# date, number or short text field, else its first field of another ordered kind; an entity with
# neither is checked by its record id.
SORT_KINDS = (("date", "money", "decimal", "integer", "rating", "short_text"),
              ("long_text", "email", "phone", "url", "datetime", "time"))


def _sort_field(entity: DataEntity, feature: Feature) -> EntityField | None:
    named = [f for f in entity.fields if f.ident in feature.fields]
    return named[0] if named else next((f for kinds in SORT_KINDS if (f := first_of(entity, *kinds))), None)


def sort_orders(api: Api, entity: DataEntity, feature: Feature) -> str:
    field = _sort_field(entity, feature)
    who = api.account()
    if feature.fields[:1] == ["status"] and entity.workflow and not any(f.ident == "status" for f in entity.fields):
        ident, made = "status", _records_in_states(api, entity, who)
    elif field is None:   # no field of a sortable kind: the record id, a sort key of every list
        ident, made = "id", [api.create(entity, who) for _ in range(3)]
    else:
        ident = field.ident
        # a choice in an order neither declared nor alphabetical; lower-case texts: the same order
        # whether the app compares bytes or ignores case
        values = sort_choices(field) or [_uncased(valid_value(field, n, api.phrases)) for n in (3, 1, 2)]
        made = [api.create(entity, who, **{ident: value}) for value in values]
    choices = entity.workflow if ident == "status" else field.enum_values if field is not None and \
        kind_of(field) == "enum" else []
    want = [m["id"] for m in sorted(made, key=lambda m: place(choices, m[ident]) if choices else m[ident])]
    for order, expected in (("asc", want), ("desc", want[::-1])):
        got = [i for i in _ids(api.listed(api.collection(entity), who, {"sort": ident, "order": order,
                                                                          "limit": 100})) if i in want]
        if got != expected:
            raise CheckFailed(f"?sort={ident}&order={order} lists {got}, expected {expected}"
                              + (f" (the declared order of its values: {', '.join(choices)})" if choices else ""))
    return f"?sort={ident} orders asc and desc" + (f", in the declared order {', '.join(choices)}" if choices else "")


def _records_in_states(api: Api, entity: DataEntity, who) -> list[dict]:
    """Three records in three states along the workflow, made so that neither the making order nor
    the alphabet is the workflow's: the first moved two steps (as far as it goes), the second kept
    in the first state, the third moved one step."""
    path = [entity.workflow[0]]
    while len(path) < 3 and (nxt := next((s for s in allowed(entity, path[-1]) if s not in path), None)):
        path.append(nxt)
    made = []
    for steps in (len(path) - 1, 0, min(1, len(path) - 1)):
        rec = api.create(entity, who)
        for state in path[1:steps + 1]:
            api.expect(api.call("PUT", f"{api.collection(entity)}/{rec['id']}", who, {"status": state}), 200,
                       what=f"move a {entity.name} to {state}")
        made.append({**rec, "status": path[steps]})
    return made


def _uncased(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def _numbers(data: Any, path: str = "") -> dict[str, float]:
    if isinstance(data, bool):
        return {}
    if isinstance(data, (int, float)):
        return {path: float(data)}
    if isinstance(data, dict):
        return {k: v for key, val in data.items() for k, v in _numbers(val, f"{path}/{key}").items()}
    if isinstance(data, list):
        return {k: v for i, val in enumerate(data) for k, v in _numbers(val, f"{path}/{i}").items()}
    return {}


def moved_by(before: Any, after: Any, delta: float) -> list[str]:
    """The JSON paths whose number grew by exactly `delta`."""
    old, new = _numbers(before), _numbers(after)
    return [p for p, v in new.items() if abs(v - old.get(p, 0.0) - delta) < 1e-6]


# What `aggregate` totals (docs/spec-language.md, "Features"): the number field it names, else a
# money field, else the first number field of any kind.
_TOTALLED = ("money", "decimal", "integer", "rating")


def totals_add_up(api: Api, entity: DataEntity, feature: Feature) -> str:
    numbers = [f for f in entity.fields if kind_of(f) in _TOTALLED]
    field = next((f for f in numbers if f.ident in feature.fields), None) or first_of(entity, "money") or \
        next(iter(numbers), None)
    if field is None:
        fields = ", ".join(f"{f.name} ({kind_of(f)})" for f in entity.fields) or "none"
        raise CheckFailed(f"aggregate on entity {entity.name}: no number field to total (its fields: {fields}); "
                          f"give one a number kind (integer, money, decimal or rating)")
    who = api.account()
    path = f"{api.collection(entity)}/totals"
    before = api.expect(api.call("GET", path, who), 200, what="totals").body
    amounts = summed_values(field)
    for amount in amounts:
        api.create(entity, who, **{field.ident: amount})
    after = api.expect(api.call("GET", path, who), 200, what="totals").body
    if not moved_by(before, after, sum(amounts)):
        raise CheckFailed(f"after adding {' + '.join(map(str, amounts))} no total in {path} grew by {sum(amounts)}")
    return f"{path}: the {field.ident} total grew by {sum(amounts)}"


def counts_follow(api: Api, entity: DataEntity, feature: Feature) -> str:
    who = api.account()
    path = f"{api.collection(entity)}/counts"
    before = api.expect(api.call("GET", path, who), 200, what="counts").body
    rec = api.create(entity, who)
    after = api.expect(api.call("GET", path, who), 200, what="counts").body
    counted = _counted(entity)
    if counted is None:
        raise CheckFailed(f"{entity.name} has no status or choice field to count by")
    value = rec.get(counted)
    grew = moved_by(before, after, 1)
    if not any(p.endswith(f"/{value}") for p in grew):
        raise CheckFailed(f"after adding a {entity.name} with {counted} {value!r} the count of {value!r} did not "
                          f"grow by 1: {after}")
    return f"{path}: {counted} {value!r} grew by 1"


def _counted(entity: DataEntity) -> str | None:
    """What `status_counts` counts by (docs/spec-language.md): the status, else the first choice field."""
    if entity.workflow or entity.has_status:
        return "status"
    field = first_of(entity, "enum")
    return field.ident if field is not None else None


def csv_holds_record(api: Api, entity: DataEntity, feature: Feature) -> str:
    who = api.account()
    rec = api.create(entity, who)
    got = api.expect(api.call("GET", f"{api.collection(entity)}/export.csv", who, accept="text/csv"), 200,
                     what="CSV export")
    rows = list(csv.DictReader(io.StringIO(got.text)))
    row = next((r for r in rows if str(r.get("id")) == str(rec["id"])), None)
    if row is None:
        raise CheckFailed(f"the export has no row with id {rec['id']} ({len(rows)} rows)")
    for f in searchable(entity):
        if row.get(f.ident) != rec.get(f.ident):
            raise CheckFailed(f"CSV {f.ident} is {row.get(f.ident)!r}, the record has {rec.get(f.ident)!r}")
    return f"export.csv has the record's row ({len(rows)} rows)"


def _span(slot: Slot, first: int, last: int) -> dict[str, str]:
    """The slot from step `first` to step `last` (a single slot: at step `first`): a day per step
    from 2035-06-01 for a date slot, an hour per step from 10:00 that day for a time or datetime."""
    def at(step: int) -> str:
        if slot.kind == "date":
            return slot_value("date", date(2035, 6, 1) + timedelta(days=step), 0)
        return slot_value(slot.kind, date(2035, 6, 1), 60 * (10 + step))
    return {slot.start: at(first)} if slot.single else {slot.start: at(first), slot.end: at(last)}


def no_double_booking(api: Api, entity: DataEntity, feature: Feature) -> str:
    """A booking of the same resource (and day) whose slot overlaps an earlier one is refused with
    409; the adjacent slot (a single slot: the next one) is accepted. The slot is the spec's
    (harness/constructs/slot.py): a date range, a datetime range, a time range or a single slot."""
    slot = slot_of(entity, parent_key_of(api.spec, entity))
    if slot is None:
        raise CheckFailed(f"{entity.name} has no date or time field to book")
    who = api.account()
    day = {slot.day: "2035-06-01"} if slot.day else {}
    first = api.create(entity, who, **day, **_span(slot, 0, 2))   # on a resource of its own (Api.body_for)
    resource = {k: first[k] for k in slot.same}
    clash, adjacent = (_span(slot, 0, 0), _span(slot, 1, 1)) if slot.single else (_span(slot, 1, 3), _span(slot, 2, 4))
    got = api.call("POST", api.collection(entity), who, api.body_for(entity, who, **{**resource, **clash}))
    shown = "-".join(dict.fromkeys(clash.values()))
    if got.status != 409:
        raise CheckFailed(f"a {entity.name} overlapping the booked {slot.label} ({shown}) was not refused "
                          f"with 409: {got.line}")
    others = other_user_clash(api, entity, slot, first, {**resource, **clash}, shown)
    api.create(entity, who, **{**resource, **adjacent})
    own = _span(slot, 0, 2)   # the first booking's own slot: free once it is cancelled
    freed = _freed_slot(api, entity, feature, who, first, {**resource, **day, **own},
                        f"{slot.label} ({'-'.join(dict.fromkeys(own.values()))})")
    return (f"an overlapping {slot.label} → 409{others}; the {'next' if slot.single else 'adjacent'} "
            f"one is accepted{freed}")


def _freed_slot(api: Api, entity: DataEntity, feature: Feature, who, first: dict, clash: dict,
                what: str) -> str:
    """With `options.while`: the first booking moved out of the holding states (a cancelled
    booking) frees its slot — the overlapping booking refused before is now accepted."""
    try:
        held = booking_states(entity.plural, feature.options, entity_states(entity))
    except HoldingError:
        return ""
    if not held:
        return ""
    item = f"{api.collection(entity)}/{first['id']}"
    path = state_path(entity, first.get("status") or entity_states(entity)[0], False, held)
    if not path:
        raise CheckFailed(f"no workflow move frees a {entity.name}'s slot (states holding it: {', '.join(held)})")
    for state in path:
        api.expect(api.call("PUT", item, who, {"status": state}), 200, what=f"free the slot: move to {state}")
    got = api.call("POST", api.collection(entity), who, api.body_for(entity, who, **clash))
    if got.status != 201:
        raise CheckFailed(f"after the booked {entity.name} moved to {path[-1]}, the freed {what} was "
                          f"refused: {got.line}")
    return f"; once the booked one moved to {path[-1]}, the {what} is booked again"


def newest_first(api: Api, entity: DataEntity, feature: Feature) -> str:
    who = api.account()
    day = first_of(entity, "date", "datetime")
    old = api.create(entity, who, **({day.ident: valid_value(day, 1, api.phrases)} if day else {}))
    new = api.create(entity, who, **({day.ident: valid_value(day, 5, api.phrases)} if day else {}))
    got = [i for i in _ids(api.listed(api.collection(entity), who)) if i in (old["id"], new["id"])]
    if got != [new["id"], old["id"]]:
        raise CheckFailed(f"the list shows {got}; the newest ({new['id']}) must come first")
    return "the newest record is listed first"


FEATURE_CHECKS = {
    "search": search_exact, "filter": filter_exact, "sort": sort_orders, "aggregate": totals_add_up,
    "status_counts": counts_follow, "csv_export": csv_holds_record, "no_double_booking": no_double_booking,
    "newest_first": newest_first, "period_summary": period_summary, "capacity": capacity_holds,
    "limit": limit_holds,
}
