"""The calendar of dated records (`calendar = true` on an entity): src/calendar_view.py (the JSON
route GET /api/<slug>/calendar and the agenda page /<slug>/calendar) and its tests. Pure: app in,
source text out."""

from __future__ import annotations

from harness.offline.generator.api_py import collection_url
from harness.offline.generator.appmodel import AppModel, Column, Entity
from harness.offline.generator.codegen import doc, fill, lit, module
from harness.offline.generator.record_tools import (
    marked, owner_of, page_login_check, scope_imports, test_fixtures, test_header, tool_entities, user_param,
    with_pages,
)
from harness.offline.generator.samples import sample
from harness.offline.generator.templates_dir import template

SOURCE, TESTS = "src/calendar_view.py", "tests/test_calendar_view.py"
_MODULE = template("record_tools/calendar.tmpl")
_ROUTE = template("record_tools/calendar_route.tmpl")
_TEST = template("record_tools/calendar_test.tmpl")


def calendar_column(e: Entity) -> Column | None:
    return next((c for c in e.columns if c.ident == e.calendar and c.kind in ("date", "datetime")), None)


def calendar_entities(app: AppModel) -> list[Entity]:
    return [e for e in tool_entities(app, "calendar") if calendar_column(e) is not None]


def api_url(e: Entity) -> str:
    return collection_url(e) + "/calendar"


def page_url(e: Entity) -> str:
    return f"/{e.slug}/calendar"


def calendar_paths(app: AppModel) -> list[str]:
    return [api_url(e) for e in calendar_entities(app)]


def calendar_py(app: AppModel) -> str:
    entities = calendar_entities(app)
    calendars = {e.ident: (e.slug, calendar_column(e).ident, calendar_column(e).kind,
                           e.display.ident if e.display else "id", e.plural.capitalize()) for e in entities}
    routes = [fill(with_pages(_ROUTE, app), api_url=lit(api_url(e)), page_url=lit(page_url(e)), ident=e.ident, key=lit(e.ident),
                   plural_doc=doc(e.plural), user_param=user_param(app), owner=owner_of(app),
                   page_owner=owner_of(app) if app.auth else "None", login_check=page_login_check(app),
                   title=lit(f"{e.plural.capitalize()}: calendar")) for e in entities]
    docs = "\n".join(f"- GET {api_url(e)}?from=YYYY-MM-DD&to=YYYY-MM-DD; the agenda page GET {page_url(e)}"
                     for e in entities)
    return module(fill(with_pages(_MODULE, app), routes_doc=docs, api_modules=", ".join(sorted(f"api_{e.ident}" for e in entities)),
                       scope_imports=scope_imports(app), calendars=lit(calendars),
                       out_models=", ".join(f"{lit(e.ident)}: api_{e.ident}.{e.camel}Out" for e in entities),
                       routes="\n\n\n".join(r.strip("\n") for r in routes)))


def _on_day(e: Entity, column: Column) -> str:
    """The body of on_day(day): the overrides that put a new record on that day (its date/time
    range kept valid: an end after its start)."""
    slot = e.slot
    at = "day" if column.kind == "date" else 'day + "T09:00:00"'
    values = {column.ident: at}
    if slot and slot.end != slot.start and column.ident in (slot.start, slot.end):
        other = slot.end if column.ident == slot.start else slot.start
        kind = next(c.kind for c in e.columns if c.ident == other)
        step = 1 if other == slot.end else -1
        values[other] = (f"(date.fromisoformat(day) + timedelta(days={step})).isoformat()" if kind == "date"
                         else f'day + "T{10 if step > 0 else 8:02d}:00:00"')
    body = "{" + ", ".join(f"{lit(k)}: {v}" for k, v in values.items()) + "}"
    return "from datetime import date, timedelta\n\nreturn " + body if "timedelta" in body else "return " + body


def calendar_test(app: AppModel, e: Entity, req_ids: tuple[str, ...], name: str | None = None) -> str:
    bob = ('bob = login(client, "bobby")\n'
           f'assert client.get({lit(api_url(e))}, params={{"from": "2031-03-01", "to": "2031-03-31"}}, '
           'headers=bob).json()["days"] == []') if app.auth and not e.shared else ""
    shown = e.display
    label = sample(shown) if shown is not None and shown.required else None
    label_check = (f"assert {lit(label)} in page.text" if isinstance(label, str) and label and
                   not set(label) & set("<>&\"'") and shown.ident != e.calendar else "")
    text = fill(with_pages(_TEST, app), label_check=label_check, ident=e.ident, fixtures=test_fixtures(app), on_day=_on_day(e, calendar_column(e)),
                api_url=lit(api_url(e)), page_url=lit(page_url(e)), bob_check=bob)
    if name:
        text = text.replace(f"def test_{e.ident}_calendar_lists_each_day_s_records(", f"def {name}(", 1)
    head, _, body = text.partition("\n")
    return marked(req_ids, head, body)


def test_calendar_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    tests = [calendar_test(app, e, e.req_ids("calendar") or req_ids) for e in calendar_entities(app)]
    return module(test_header(app, "the calendar views", "calendar_view"), *tests)


def calendar_acceptance(app: AppModel, req_id: str, entity: str, name: str) -> str | None:
    e = app.entity(entity)
    return calendar_test(app, e, (req_id,), name) if calendar_column(e) is not None else None
