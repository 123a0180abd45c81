"""Black-box checks of the record tools (docs/spec-language.md): the calendar of dated records,
CSV import and attachments. Written from the spec and the documented routes only."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import kind_of
from harness.models.spec import AppSpec, DataEntity

# Days no other check uses (their records fall in 2031 + a few years).
_CAL_DAYS = ("2047-05-03", "2047-05-03", "2047-05-09", "2047-06-02", "2047-04-30")
_CAL_FROM, _CAL_TO = "2047-05-01", "2047-05-31"


def _on_day(api: Api, entity: DataEntity, who: Any, day: str) -> dict[str, Any]:
    """A valid body whose calendar field falls on `day`: every date of the record moved by the
    same number of days (an end stays after its start)."""
    body = api.body_for(entity, who)
    base = date.fromisoformat(str(body[entity.calendar])[:10])
    shift = date.fromisoformat(day) - base
    for f in entity.fields:
        if kind_of(f) in ("date", "datetime") and isinstance(body.get(f.ident), str):
            value = body[f.ident]
            body[f.ident] = (date.fromisoformat(value[:10]) + shift).isoformat() + value[10:]
    return body


def calendar_by_day(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    who = api.account("first")
    made: dict[str, set[int]] = {}
    for day in _CAL_DAYS:
        got = api.expect(api.call("POST", api.collection(entity), who, _on_day(api, entity, who, day)), 201, 200,
                         what=f"create a {entity.name} on {day}")
        made.setdefault(day, set()).add(got.body.get("id") if isinstance(got.body, dict) else None)
    url = api.collection(entity) + "/calendar"
    got = api.expect(api.call("GET", url, who, params={"from": _CAL_FROM, "to": _CAL_TO}), 200, what="the calendar")
    days = got.body.get("days") if isinstance(got.body, dict) else None
    if not isinstance(days, list):
        raise CheckFailed(f"the calendar has no list of days: {got.line}")
    seen = {d.get("date"): {i.get("id") for i in d.get("items", []) if isinstance(i, dict)}
            for d in days if isinstance(d, dict)}
    wanted = {day: ids for day, ids in made.items() if _CAL_FROM <= day <= _CAL_TO}
    if seen != wanted or [d.get("date") for d in days] != sorted(wanted):
        raise CheckFailed(f"the calendar from {_CAL_FROM} to {_CAL_TO} shows {seen}, not {wanted} in day order")
    api.expect(api.call("GET", url, who, params={"from": _CAL_TO, "to": _CAL_FROM}), 422, what="to before from")
    page = api.call("GET", "/" + url.removeprefix("/api/"), who, params={"from": _CAL_FROM, "to": _CAL_TO},
                    accept="text/html")
    if page.status != 200 or "<" not in page.text or "2047" not in page.text:
        raise CheckFailed(f"the agenda page: {page.line}")
    return f"{sum(map(len, wanted.values()))} {entity.plural} on {len(wanted)} days listed exactly; the agenda page answers"


# capability -> the (check name, check) pairs of an entity
TOOL_CHECKS = {
    "calendar": lambda e: [(f"the calendar lists exactly the {e.plural} of each day in range", calendar_by_day)]
    if e.calendar else [],
}
