"""The generated tests of the feature registry's API parts (search, filter, sort, CSV export,
totals, counts, no double booking). Each test asserts on real values, so a handler that ignores
its parameter (a search returning everything, a sort in the wrong direction) fails it."""

from __future__ import annotations

from typing import Any

from harness.offline.features import feature_of_text
from harness.offline.generator.api_features import TEXT_FILTER_MAX, counted_column, filters, misspelt, totals_of
from harness.offline.generator.period_summary import summary_test
from harness.offline.generator.capacity_check import capacity_test, state_moves
from harness.offline.generator.row_check_lock import lock_test
from harness.offline.generator.limit_check import limit_test
from harness.offline.generator.booking_clash import clash_states, other_user_lines
from harness.offline.generator.computed_values import computed_test
from harness.offline.generator.csv_export_tests import csv_test
from harness.offline.generator.appmodel import Column, Entity, AppModel
from harness.offline.generator.samples import sample
from harness.offline.generator.codegen import fill, lit, marks
from harness.offline.generator.templates_dir import template
from harness.offline.generator.testkit import lineage_idents, router_imports, routers

def feature_req_ids(e: Entity, kind: str, fallback: tuple[str, ...]) -> tuple[str, ...]:
    """The entity's requirements that ask for feature `kind`, else its CRUD ones."""
    found = tuple(r.id for r in e.reqs if r.capability == "feature" and feature_of_text(r.text) == kind)
    return found or e.req_ids("crud", "create", "list") or fallback


def _pair(e: Entity, column: Column) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two bodies' worth of values that differ in `column` (0 then 1), keeping a date/time range
    valid: the range's partner column moves with it."""
    first, second = {column.ident: sample(column, 0)}, {column.ident: sample(column, 1)}
    slot = e.slot
    if slot and slot.start != slot.end and column.ident in (slot.start, slot.end):
        other = next(c for c in e.columns if c.ident == (slot.end if column.ident == slot.start
                                                          else slot.start))
        first[other.ident], second[other.ident] = sample(other, 0), sample(other, 1)
    return first, second


_SEARCH = template("api_feature_tests/search.tmpl")

_FILTER_EQUAL = template("api_feature_tests/filter_equal.tmpl")

_FILTER_RANGE = template("api_feature_tests/filter_range.tmpl")

_FILTER_REFERENCE = template("api_feature_tests/filter_reference.tmpl")

_SORT = template("api_feature_tests/sort.tmpl")

_TOTALS = template("api_feature_tests/totals.tmpl")

_COUNTS = template("api_feature_tests/counts.tmpl")

_BOOKING = template("api_feature_tests/booking.tmpl")

_NEWEST = template("api_feature_tests/newest.tmpl")

_PERSISTENCE = template("api_feature_tests/persistence.tmpl")


def feature_tests(app: AppModel, e: Entity, fallback: tuple[str, ...]) -> list[str]:
    """The test functions of every feature the entity has."""
    out: list[str] = []
    if e.has("persistence"):   # the restarted app is made of the test module's own routers
        idents = lineage_idents(app, e)
        out.append(fill(_PERSISTENCE, marks=marks(feature_req_ids(e, "persistence", fallback)), ident=e.ident,
                        imports=router_imports(idents, app.auth), routers=routers(idents, app.auth)))
    builders = {"search": _search, "filter": _filters, "sort": _sort,
                "csv_export": lambda e, mark: csv_test(app, e, mark),
                "aggregate": _totals, "status_counts": _counts,
                "no_double_booking": lambda e, mark: _booking(app, e, mark) + lock_test(app, e, "no_double_booking", mark),
                "newest_first": _newest, "period_summary": summary_test,
                "capacity": lambda e, mark: capacity_test(app, e, mark) + lock_test(app, e, "capacity", mark),
                "limit": lambda e, mark: limit_test(app, e, mark)}
    for kind, _opts in e.features:
        if kind in builders:
            out += builders[kind](e, marks(feature_req_ids(e, kind, fallback)))
    return out + computed_test(e, marks(e.req_ids("computed") or fallback))


def _search(e: Entity, mark: str) -> list[str]:
    column = next((c for c in e.plain if c.kind in ("short_text", "long_text")), None)
    if column is None:
        column = next((c for c in e.plain if c.kind in ("email", "url")), None)
    if column is None:
        return []
    hit, miss = {"email": ("zebra@example.com", "lion@example.com"),
                 "url": ("https://zebra.example.com", "https://lion.example.com")}.get(
        column.kind, ("Quarterly zebra report", "Something else"))
    return [fill(_SEARCH, marks=mark, ident=e.ident, key=lit(column.ident), hit=lit(hit),
                 miss=lit(miss), word=lit("zebra"))]


def _filters(e: Entity, mark: str) -> list[str]:
    out = []
    columns = {c.ident: c for c in e.columns}
    for f in filters(e)[:4]:
        column = columns.get(f.column)
        if column is None:
            continue  # status and the parent FK are covered by the workflow and relation tests
        if column.kind == "reference":
            if _apart_by(e, column):
                out.append(fill(_FILTER_REFERENCE, marks=mark, ident=e.ident, column=f.column,
                                key=lit(f.column), target=column.ref))
            continue
        first, second = _pair(e, column)
        if first == second:
            continue
        if f.kind in ("equal", "text"):
            bad = "x" * (TEXT_FILTER_MAX + 1) if f.kind == "text" else "not-a-value"
            out.append(fill(_FILTER_EQUAL, marks=mark, ident=e.ident, column=f.column,
                            first=lit(first), second=lit(second), key=lit(f.column),
                            value=lit(_query(second[f.column])), bad=lit(bad),
                            misspelt=lit(misspelt(e, f.column))))
        else:
            out.append(fill(_FILTER_RANGE, marks=mark, ident=e.ident, column=f.column,
                            first=lit(first), second=lit(second), min_key=lit(f"{f.column}_min"),
                            max_key=lit(f"{f.column}_max"), low_value=lit(first[f.column]),
                            high_value=lit(second[f.column])))
    return out


def _apart_by(e: Entity, column: Column) -> bool:
    """True when two records that differ only in `column` may both be stored: a rule that refuses
    a second record (no double booking, a capacity) counts the column among what it compares."""
    if e.has("no_double_booking") and e.slot and column.ident not in e.slot.same:
        return False
    return not e.has("capacity") or column.ident in (e.feature("capacity").get("fields") or [])


def _query(value: Any) -> Any:
    return str(value).lower() if isinstance(value, bool) else value


def _sort(e: Entity, mark: str) -> list[str]:
    """Records listed in both orders by the feature's field (else the first that varies); a
    choice field's records are made in an order that is neither its declared one nor the
    alphabetical one, and listed in the declared one (low, medium, high)."""
    named = e.feature("sort").get("fields") or []
    varying = [c for c in e.plain if c.kind != "boolean" and sample(c, 0) != sample(c, 1)]
    column = next((c for c in varying if c.ident in named), None) or next(iter(varying), None)
    if column is None:
        return []
    if column.kind == "enum" and len(column.values) > 1 and _apart_by(e, column):
        places = _choice_places(len(column.values))
        bodies = [{column.ident: column.values[p]} for p in places]
        ascending = sorted(range(len(places)), key=lambda i: places[i])
    else:
        bodies = list(_pair(e, column))
        ascending = [0, 1] if bodies[0][column.ident] < bodies[1][column.ident] else [1, 0]
    return [fill(_SORT, marks=mark, ident=e.ident, bodies=lit(bodies), key=lit(column.ident),
                 ascending=lit(ascending))]


def _choice_places(count: int) -> list[int]:
    """Places in a choice's declared values to make records of: the second, the last, the first
    (two values: the second, the first), so neither the making order nor the alphabet lists them
    as the declared order does."""
    return [1, count - 1, 0] if count > 2 else [1, 0]


def _newest(e: Entity, mark: str) -> list[str]:
    """Records whose list order tells newest-first from both id orders: by date, the newer date,
    the older, the newer again (expected: the third, the first, the second); an entity whose slot
    cannot be booked twice gets the newer then the older. Without a date column the last added
    comes first."""
    key = e.newest_key
    if key == "id":
        bodies, expected = ["{}", "{}", "{}"], "[third, second, first]"
    else:
        column = next(c for c in e.plain if c.ident == key)
        a, b = _pair(e, column)
        newer, older = (b, a) if b[key] > a[key] else (a, b)
        bodies, expected = [lit(newer), lit(older), lit(newer)], "[third, first, second]"
        if e.has("no_double_booking"):
            bodies, expected = bodies[:2], "[first, second]"
    names = ("first", "second", "third")
    creates = "\n".join(f"    {n} = create_{e.ident}(client, headers, **{b})" for n, b in zip(names, bodies))
    return [fill(_NEWEST, marks=mark, creates=creates, expected=expected)]


def _totals(e: Entity, mark: str) -> list[str]:
    summed, group = totals_of(e)
    if not summed:
        return []
    column = next(c for c in e.columns if c.ident == summed[0])
    first, second = _pair(e, column)
    group_check = ""
    if group and not (group == "status" and e.has_status):   # a user's own status enum groups like any enum
        enum = next(c for c in e.columns if c.ident == group)
        if len(enum.values) >= 2:
            first[group], second[group] = enum.values[0], enum.values[1]
            group_check = (f"assert data[\"groups\"][{lit(enum.values[0])}][\"sums\"][{lit(column.ident)}]"
                           f" == pytest.approx({first[column.ident]!r})")
    return [fill(_TOTALS, marks=mark, ident=e.ident, first=lit(first), second=lit(second),
                 key=lit(column.ident), total=repr(first[column.ident] + second[column.ident]),
                 group_check=group_check, group_name=f"_by_{group}" if group_check else "")]


def _counts(e: Entity, mark: str) -> list[str]:
    if e.has_status:
        nxt = dict(e.transitions).get(e.states[0], ())
        if not nxt:
            return []
        expected = {s: int(s in (e.states[0], nxt[0])) for s in e.states}
        move = (f'assert client.put(f"{{URL}}/{{second}}", json={{"status": {lit(nxt[0])}}}, '
                "headers=headers).status_code == 200")
        return [fill(_COUNTS, marks=mark, ident=e.ident, column="status", first="", second="",
                     move=move, expected=lit(expected))]
    column = counted_column(e)
    if column is None or len(column.values) < 2:
        return []
    expected = {v: int(v in column.values[:2]) for v in column.values}
    return [fill(_COUNTS, marks=mark, ident=e.ident, column=column.ident,
                 first=f", **{{{lit(column.ident)}: {lit(column.values[0])}}}",
                 second=f", **{{{lit(column.ident)}: {lit(column.values[1])}}}",
                 move="assert second", expected=lit(expected))]


def _booking(app: AppModel, e: Entity, mark: str) -> list[str]:
    slot = e.slot
    resource = next((k for k in slot.same if k == e.fk or any(c.ident == k for c in e.refs)), None)
    if resource is None:
        return []
    target = e.parent if resource == e.fk else next(c.ref for c in e.refs if c.ident == resource)
    start = next(c for c in e.columns if c.ident == slot.start)
    if slot.end == slot.start:
        here, later = {slot.start: sample(start, 0)}, {slot.start: sample(start, 1)}
    else:
        end = next(c for c in e.columns if c.ident == slot.end)
        here = {slot.start: sample(start, 0), slot.end: sample(end, 0)}
        later = {slot.start: sample(end, 0), slot.end: sample(end, 1)}
    other = other_user_lines(app, e, target)
    return [fill(_BOOKING, marks=mark, slot=lit(here), later=lit(later), resource=lit(resource),
                 resource_entity=target, login_arg=", login" if other else "", other_user=other,
                 free=_freed_slot_lines(e))]


def _freed_slot_lines(e: Entity) -> str:
    """With `options.while`: the booking moved out of the holding states frees its slot (the same
    slot is then booked again), and moving it back into them is the 409."""
    held = clash_states(e)
    out = state_moves(e, e.states[0], False, held) if held else None
    if not out:
        return ""
    put = 'client.put(f"{{URL}}/{{booked.json()[\'id\']}}", json={{"status": {state}}}, headers=headers)'
    lines = [f"assert {put.format(state=lit(s))}.status_code == 200" for s in out]
    lines += ["again = client.post(URL, json=body, headers=headers)   # the freed slot is booked again",
              "assert again.status_code == 201, again.text"]
    back = state_moves(e, out[-1], True, held)
    if back and len(back) == 1:
        lines += [f"back = {put.format(state=lit(back[0]))}",
                  "assert back.status_code == 409, back.text   # its slot is taken now"]
    return "\n".join(lines)
