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
    wrong = api.call("POST", "/api/auth/login", body=api.credentials(who.name, api.phrases.password()))
    if wrong.status != 401:
        raise CheckFailed(f"a wrong password must be 401: {wrong.line}")
    return "register → login → token; /me names the account; no token and a wrong password → 401"


def needs_token(api: Api, entity: DataEntity) -> str:
    got = api.call("GET", api.collection(entity))
    if got.status != 401:
        raise CheckFailed(f"{api.collection(entity)} without a token: expected 401, got {got.line}")
    return f"GET {api.collection(entity)} without a token → 401"


def isolated(api: Api, entity: DataEntity) -> str:
    """Other accounts — the second one and one registered after a number of others drawn per run
    (Api.late_account) — neither list, read, change nor delete the first account's record."""
    first = api.account("first")
    rec = api.create(entity, first)
    path = f"{api.collection(entity)}/{rec['id']}"
    others = api.others()
    for n, other in others:
        who = f"the {_nth(n)} account"
        if rec["id"] in [i.get("id") for i in api.listed(api.collection(entity), other)]:
            raise CheckFailed(f"{who} (of {api.accounts_made()} the checks registered) lists the first account's {entity.name} {rec['id']}")
        api.expect(api.call("GET", path, other), 404, what=f"{who} reads another account's record")
        changed = api.body_for(entity, other)
        api.expect(api.call("PUT", path, other, {k: v for k, v in changed.items() if not k.endswith("_id")}),
                   404, 403, what=f"{who} changes another account's record")
        api.expect(api.call("DELETE", path, other), 404, 403, what=f"{who} deletes another account's record")
        still = api.expect(api.call("GET", path, first), 200, what="the owner reads it after")
        for key, value in rec.items():
            if key in changed and key != "id" and isinstance(still.body, dict) and still.body.get(key) != value:
                raise CheckFailed(f"{who} changed {key}: {value!r} → {still.body.get(key)!r}")
    named = " and ".join(_nth(n) for n, _ in others)
    return (f"the {named} of the {api.accounts_made()} accounts the checks registered get 404 for the first "
            f"one's {entity.name} (list, read, change, delete)")


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


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
    text = api.phrases.text()
    api.create(entity, who, **{fields[0].ident: text})
    got = api.call("GET", page.route, who, accept="text/html")
    if got.status != 200 or escape(text) not in got.text:
        raise CheckFailed(f"page {page.route} does not show the {entity.name} just created ({text!r}): {got.line}")
    return f"GET {page.route} shows the {entity.name} created through the API"
