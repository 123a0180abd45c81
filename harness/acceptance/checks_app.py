"""App-wide checks: health, accounts and per-user isolation, the dashboard, the HTML pages."""

from __future__ import annotations

from html import escape

from harness.acceptance.checks_features import moved_by
from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import searchable
from harness.models.spec import DataEntity, Page


def health(api: Api) -> str:
    got = api.expect(api.call("GET", "/health"), 200, what="health")
    if not isinstance(got.body, dict) or str(got.body.get("status", "")).lower() != "ok":
        raise CheckFailed(f'GET /health must answer {{"status": "ok"}}: {got.line}')
    return got.line


def account_works(api: Api) -> str:
    who = api.account()
    me = api.expect(api.call("GET", "/api/auth/me", who), 200, what="who am I")
    if who.name not in me.text:
        raise CheckFailed(f"/api/auth/me does not name the signed-in account: {me.line}")
    api.expect(api.call("GET", "/api/auth/me"), 401, what="who am I without a token")
    wrong = api.call("POST", "/api/auth/login", body=api.credentials(who.name, "Wrong-password-1"))
    if wrong.status != 401:
        raise CheckFailed(f"a wrong password must be 401: {wrong.line}")
    return "register → login → token; /me names the account; no token and a wrong password → 401"


def needs_token(api: Api, entity: DataEntity) -> str:
    got = api.call("GET", api.collection(entity))
    if got.status != 401:
        raise CheckFailed(f"{api.collection(entity)} without a token: expected 401, got {got.line}")
    return f"GET {api.collection(entity)} without a token → 401"


def isolated(api: Api, entity: DataEntity) -> str:
    """A second account neither lists, reads, changes nor deletes the first account's record."""
    first, second = api.account("first"), api.account("second")
    rec = api.create(entity, first)
    path = f"{api.collection(entity)}/{rec['id']}"
    if rec["id"] in [i.get("id") for i in api.listed(api.collection(entity), second)]:
        raise CheckFailed(f"the second account lists the first account's {entity.name} {rec['id']}")
    api.expect(api.call("GET", path, second), 404, what="another account's record")
    changed = api.body_for(entity, second)
    api.expect(api.call("PUT", path, second, {k: v for k, v in changed.items() if not k.endswith("_id")}),
               404, 403, what="change another account's record")
    api.expect(api.call("DELETE", path, second), 404, 403, what="delete another account's record")
    still = api.expect(api.call("GET", path, first), 200, what="the owner reads it after")
    for key, value in rec.items():
        if key in changed and key != "id" and isinstance(still.body, dict) and still.body.get(key) != value:
            raise CheckFailed(f"another account changed {key}: {value!r} → {still.body.get(key)!r}")
    return f"a second account gets 404 for the first one's {entity.name} (list, read, change, delete)"


def dashboard_counts(api: Api, entity: DataEntity | None) -> str:
    who = api.account()
    before = api.expect(api.call("GET", "/api/dashboard", who), 200, what="dashboard").body
    if entity is None:
        return "GET /api/dashboard → 200"
    api.create(entity, who)
    after = api.expect(api.call("GET", "/api/dashboard", who), 200, what="dashboard").body
    if not moved_by(before, after, 1):
        raise CheckFailed(f"after adding a {entity.name} no count on /api/dashboard grew by 1: {after}")
    return f"adding a {entity.name} raises a dashboard count by 1"


def page_answers(api: Api, page: Page) -> str:
    got = api.call("GET", page.route, api.account(), accept="text/html")
    if got.status != 200 or "<" not in got.text:
        raise CheckFailed(f"page {page.route}: expected 200 HTML, got {got.line}")
    return f"GET {page.route} → 200 HTML"


def page_shows_record(api: Api, page: Page, entity: DataEntity) -> str:
    fields = searchable(entity)
    if not fields:
        return page_answers(api, page)
    who = api.account()
    text = f"{api.token} shown on page {api.number()}"
    api.create(entity, who, **{fields[0].ident: text})
    got = api.call("GET", page.route, who, accept="text/html")
    if got.status != 200 or escape(text) not in got.text:
        raise CheckFailed(f"page {page.route} does not show the {entity.name} just created ({text!r}): {got.line}")
    return f"GET {page.route} shows the {entity.name} created through the API"
