"""Black-box check of public read (`read = "public"`, docs/spec-language.md): a visitor without an
account reads what an account added (the list, the record, and the entity's own page when the app
has pages) but cannot add, change or delete (401); a second account cannot change or delete the
first one's record (403, or 404 by the private-record convention) and leaves it as it was; its
author can. Written from the spec and the documented convention only (docs/acceptance.md)."""

from __future__ import annotations

from html import escape

from harness.acceptance.client import Account, Api, CheckFailed
from harness.acceptance.samples import searchable
from harness.models.spec import AppSpec, DataEntity


def _author(api: Api, spec: AppSpec, entity: DataEntity) -> Account:
    """The account that adds the record: the first (the admin role, which may add a managed one)."""
    first = api.account("first")
    if entity.manage and spec.roles:
        me = api.expect(api.call("GET", "/api/auth/users/me", first), 200, what="my role").body
        if not isinstance(me, dict) or me.get("role") not in (spec.roles[0], entity.manage):
            raise CheckFailed(f"the first account may not add a {entity.name}: {me}")
    return first


def _own_page(spec: AppSpec, entity: DataEntity) -> str | None:
    """The page that shows only this entity (no page when the app has none)."""
    if not (spec.pages and spec.html):
        return None
    return next((p.route for p in spec.pages if p.entity == entity.ident and "{" not in p.route), None)


def _visitor_reads(api: Api, spec: AppSpec, entity: DataEntity, rec: dict, text: str) -> list[str]:
    url = f"{api.collection(entity)}/{rec['id']}"
    api.http.cookies.clear()   # a visitor: no token, no session cookie
    got = api.expect(api.call("GET", url), 200, what=f"a visitor without an account reads the {entity.name}")
    if not isinstance(got.body, dict) or got.body.get("id") != rec["id"]:
        raise CheckFailed(f"a visitor reading {url} gets {got.line}, not the {entity.name}")
    if rec["id"] not in [i.get("id") for i in api.listed(api.collection(entity), None)]:
        raise CheckFailed(f"a visitor's {api.collection(entity)} does not list {entity.name} {rec['id']}")
    done = [f"a visitor lists and reads {entity.name} {rec['id']}"]
    page = _own_page(spec, entity)
    if page and text:
        shown = api.call("GET", page, accept="text/html")
        if shown.status != 200 or escape(text) not in shown.text:
            raise CheckFailed(f"a visitor's page {page} does not show the {entity.name} ({text!r}): {shown.line}")
        done.append(f"and sees it on {page}")
    return done


def public_read(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    author, other = _author(api, spec, entity), api.sign_up(api.new_name())
    fields = searchable(entity)
    text = api.phrases.text() if fields else ""
    body = api.body_for(entity, author, **({fields[0].ident: text} if fields else {}))
    rec = {**body, **api.expect(api.call("POST", api.collection(entity), author, body), 201, 200,
                                what=f"an account adds a {entity.name}").body}
    url = f"{api.collection(entity)}/{rec['id']}"
    done = _visitor_reads(api, spec, entity, rec, text)
    change = ({fields[0].ident: api.phrases.text()} if fields else
              {f.ident: body[f.ident] for f in entity.fields if not f.ref and not f.unique and f.ident in body})
    api.expect(api.call("POST", api.collection(entity), None, body), 401, what=f"a visitor adds a {entity.name}")
    api.expect(api.call("PUT", url, None, change), 401, what=f"a visitor changes a {entity.name}")
    api.expect(api.call("DELETE", url, None), 401, what=f"a visitor deletes a {entity.name}")
    if change:
        api.expect(api.call("PUT", url, other, change), 403, 404, what=f"another account changes the {entity.name}")
    api.expect(api.call("DELETE", url, other), 403, 404, what=f"another account deletes the {entity.name}")
    still = api.expect(api.call("GET", url, author), 200, what=f"the author reads its {entity.name} after").body
    moved = {k: (v, still.get(k)) for k, v in rec.items() if k in change and isinstance(still, dict) and still.get(k) != v}
    if moved:
        raise CheckFailed(f"another account changed the {entity.name}: "
                          + ", ".join(f"{k} {a!r} → {b!r}" for k, (a, b) in moved.items()))
    if change:
        api.expect(api.call("PUT", url, author, change), 200, what=f"the author changes its {entity.name}")
    api.expect(api.call("DELETE", url, author), 204, 200, what=f"the author deletes its {entity.name}")
    api.expect(api.call("GET", url), 404, what=f"a visitor reads the deleted {entity.name}")
    return (" ".join(done) + "; a visitor's POST, PUT, DELETE → 401; another account's PUT, DELETE → "
            "refused, the record unchanged; the author's → done")
