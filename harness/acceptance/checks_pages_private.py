"""Black-box checks of per-user isolation on the HTML pages (the `auth` capability, where the app has
pages and the entity's records are private): another account's pages do not show the record, and
its page forms neither change nor delete it.

The API's isolation checks (checks_app.isolated) look at /api only; a page that renders every
user's rows, or a form route that deletes by id without asking whose record it is, passed them
(issue #47, hostile trial A2, A20)."""

from __future__ import annotations

from html import escape

from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import searchable
from harness.constructs.collection_url import collection_slug
from harness.models.spec import AppSpec, DataEntity


def page_routes(spec: AppSpec, entity: DataEntity) -> list[str]:
    """The pages that may list the entity's records: the index and every page of the spec that is
    the entity's or no entity's (a home or dashboard page shows several)."""
    routes = ["/"] + [p.route for p in spec.pages if p.entity in (None, entity.ident) and "{" not in p.route]
    return list(dict.fromkeys(routes))


def _marked(api: Api, entity: DataEntity, owner) -> tuple[dict, str]:
    fields = searchable(entity)
    text = api.phrases.text()
    rec = api.create(entity, owner, **({fields[0].ident: text} if fields else {}))
    return rec, (text if fields else "")


def pages_hide_others_records(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    """Other accounts' pages (each listing page, the record's own edit page) do not show the first
    account's record text: the second account's and the late one's (Api.others)."""
    first = api.account("first")
    rec, text = _marked(api, entity, first)
    if not text:
        return f"a {entity.name} has no text field to look for on a page"
    detail = f"/forms/{collection_slug(entity.plural)}/{rec['id']}/edit"
    seen = []
    for n, other in api.others():
        for route in [*page_routes(spec, entity), detail]:
            got = api.call("GET", route, other, accept="text/html")
            if escape(text) in got.text or text in got.text:
                raise CheckFailed(f"another account's page {route} shows the first account's {entity.name} ({text!r}; "
                                  f"account {n} of {api.accounts_made()} the checks registered): {got.line}")
            if route not in seen:
                seen.append(route)
    owner_view = api.call("GET", "/", first, accept="text/html")
    if escape(text) not in owner_view.text:
        raise CheckFailed(f"the owner's page / does not show its own {entity.name} ({text!r}): {owner_view.line}")
    return (f"accounts {' and '.join(str(n) for n, _ in api.others())} of {api.accounts_made()}: their "
            f"{', '.join(seen)} do not show the first account's {entity.name}; the owner's / does")


def forms_leave_others_records(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    """Other accounts (Api.others) posting the page forms (edit, complete, delete) at the first
    account's record leave it as it was: the owner reads it back unchanged."""
    first = api.account("first")
    rec, text = _marked(api, entity, first)
    base = f"/forms/{collection_slug(entity.plural)}/{rec['id']}"
    url = f"{api.collection(entity)}/{rec['id']}"
    before = api.expect(api.call("GET", url, first), 200, what=f"the owner reads its {entity.name}").body
    changed = {f.ident: api.phrases.text() for f in searchable(entity)[:1]}
    # a bearer token signs a page request in like the session cookie does (the convention)
    for n, other in api.others():
        for action, body in (("edit", changed), ("complete", {}), ("delete", {})):
            got = api.http.request("POST", f"{base}/{action}", data=body,
                                   headers=api.headers("text/html", other, form=True))
            api.http.cookies.clear()
            api.seen.append(f"POST {base}/{action} (form, account {n}) → {got.status_code}")
    after = api.call("GET", url, first)
    if after.status != 200:
        raise CheckFailed(f"after another account posted {base}/delete the owner's {entity.name} is gone: {after.line}")
    if isinstance(before, dict) and isinstance(after.body, dict):
        moved = {k: (v, after.body.get(k)) for k, v in before.items() if after.body.get(k) != v}
        if moved:
            raise CheckFailed(f"another account's page forms changed the first account's {entity.name}: "
                              + ", ".join(f"{k} {a!r} → {b!r}" for k, (a, b) in moved.items()))
    return (f"accounts {' and '.join(str(n) for n, _ in api.others())} of {api.accounts_made()}: their edit, "
            f"complete and delete forms at {base} leave the owner's {entity.name} as it was")
