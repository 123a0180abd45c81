"""Builds tests/test_acceptance.py: one end-to-end test per requirement through src.main.app."""

from __future__ import annotations

from harness.offline.generator.acceptance_access import access_body
from harness.offline.generator.api_features import totals_of
from harness.offline.generator.api_py import children_url, collection_url

from harness.offline.generator.api_tests import change, stored, workflow_walk
from harness.offline.generator.dashboard_py import dashboard_heading
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.record_tool_files import tool_acceptance
from harness.offline.generator.samples import body
from harness.offline.generator.codegen import fill, lit, marks, module
from harness.offline.generator.naming import unique_idents
from harness.offline.generator.pages_py import page_routes, route_showing
from harness.offline.generator.pages_tests import form_fields
from harness.offline.generator.setup_files import TEST_PASSWORD
from harness.offline.generator.testkit import api_makers, linked_body
from harness.models.spec import Requirement
from harness.offline.generator.templates_dir import template

_HEADER = template("acceptance_py/header.tmpl")


def test_acceptance_py(app: AppModel) -> str:
    """The text of tests/test_acceptance.py (requirements the app cannot implement get no test)."""
    header = fill(_HEADER, login_arg=", login" if app.auth else "",
                  headers='login(client, "alice")' if app.auth else "{}")
    chunks = [header, *api_makers(app)]
    names = unique_idents([r.id for r in app.supported])
    for req, name in zip(app.supported, names):
        chunks.append(_test(app, req, f"test_{name}_{req.capability}"))
    return module(*chunks)


def _test(app: AppModel, req: Requirement, name: str) -> str:
    head = f"{marks([req.id])}def {name}(client, headers):\n"
    if req.capability == "health":
        return f"{marks([req.id])}def {name}(client):\n" + _body(_HEALTH if app.html else _HEALTH_API)
    if req.capability == "auth":
        return f"{marks([req.id])}def {name}(client, login):\n" + _body(_auth(app))
    tool = tool_acceptance(app, req, name)
    if tool is not None:
        return tool
    access = access_body(app, req)
    if access is not None:
        fixtures = "client, login" if req.capability == "account" else (
            "client, headers, login" if app.auth else "client, headers")
        return f"{marks([req.id])}def {name}({fixtures}):\n" + _body(access)
    if req.capability == "account":
        return f"{marks([req.id])}def {name}(client):\n" + _body(_HEALTH)
    if req.capability == "dashboard":
        return head + _body(_dashboard(app))
    if req.capability == "pages":
        return head + _body(_pages(app))
    e = app.entity(req.entity)  # entity capabilities only reach here with a known entity
    builder = {"create": _create, "list": _list, "complete": _complete, "crud": _crud,
               "relation": _relation, "workflow": _workflow}.get(req.capability, _create)
    if req.capability == "complete" and e.workflow:
        builder = _workflow
    return head + _body(builder(app, e))


def _body(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.strip("\n").split("\n"))


_HEALTH = template("acceptance_py/health.tmpl")

_HEALTH_API = template("acceptance_py/health_api.tmpl")   # a JSON API only: the index is JSON


def _full(e: Entity) -> str:
    return linked_body(e, lit(body(e)), required_only=False)


def _create(app: AppModel, e: Entity) -> str:
    return fill('''
        body = @@full@@
        response = client.post(@@url@@, json=body, headers=headers)
        assert response.status_code == 201, response.text
        created = response.json()
        assert {key: created[key] for key in body} == body
        assert read(client.get(f"@@url_raw@@/{created['id']}", headers=headers)) == created
        listed = read(client.get(@@url@@, headers=headers))
        assert created["id"] in [item["id"] for item in listed]
        ''', full=_full(e), url=lit(collection_url(e)), url_raw=collection_url(e))


def _workflow(app: AppModel, e: Entity) -> str:
    path, refused = workflow_walk(e)
    url = collection_url(e)
    return fill('''
        item_id = create_@@ident@@(client, headers)
        assert read(client.get(f"@@url@@/{item_id}", headers=headers))["status"] == @@first@@
        for state in @@path@@:
            moved = client.put(f"@@url@@/{item_id}", json={"status": state}, headers=headers)
            assert moved.status_code == 200 and moved.json()["status"] == state
        @@refused@@
        ''', ident=e.ident, url=url, first=lit(e.states[0]), path=lit(path),
        refused=refused.replace("{URL}", url))


def _list(app: AppModel, e: Entity) -> str:
    return fill('''
        ids = [create_@@ident@@(client, headers) for _ in range(3)]
        response = client.get(@@url@@, headers=headers)
        assert response.status_code == 200
        assert [item["id"] for item in response.json()] == ids
        ''', ident=e.ident, url=lit(collection_url(e)))


def _complete(app: AppModel, e: Entity) -> str:
    return fill('''
        item_id = create_@@ident@@(client, headers)
        assert read(client.get(f"@@url@@/{item_id}", headers=headers))["status"] == "open"
        response = client.post(f"@@url@@/{item_id}/complete", headers=headers)
        assert response.status_code == 200 and response.json()["status"] == "done"
        assert read(client.get(f"@@url@@/{item_id}", headers=headers))["status"] == "done"
        assert client.post(f"@@url@@/{MISSING}/complete", headers=headers).status_code == 404
        ''', ident=e.ident, url=collection_url(e))


def _crud(app: AppModel, e: Entity) -> str:
    return fill('''
        item_id = create_@@ident@@(client, headers)
        before = client.get(f"@@url@@/{item_id}", headers=headers)
        assert before.status_code == 200
        updated = client.put(f"@@url@@/{item_id}", json=@@change@@, headers=headers)
        assert updated.status_code == 200
        assert @@stored_updated@@ == @@stored_expected@@
        assert client.post("@@url@@", json=[1, 2], headers=headers).status_code == 422
        assert client.delete(f"@@url@@/{item_id}", headers=headers).status_code == 204
        assert client.get(f"@@url@@/{item_id}", headers=headers).status_code == 404
        assert client.delete(f"@@url@@/{item_id}", headers=headers).status_code == 404
        ''', ident=e.ident, url=collection_url(e), change=lit(change(e)),
        stored_updated=stored(e, "updated.json()"),
        stored_expected=stored(e, "{**before.json(), **" + lit(change(e)) + "}"))


def _relation(app: AppModel, e: Entity) -> str:
    if not e.parent:
        return _create(app, e)
    return fill('''
        parent_id = create_@@parent@@(client, headers)
        minimal = @@minimal@@
        child = client.post(@@url@@, json={**minimal, @@fk@@: parent_id}, headers=headers)
        assert child.status_code == 201 and child.json()[@@fk@@] == parent_id
        listing = client.get(@@children@@.format(parent_id=parent_id), headers=headers)
        assert [item["id"] for item in read(listing)] == [child.json()["id"]]
        missing = client.post(@@url@@, json={**minimal, @@fk@@: MISSING}, headers=headers)
        assert missing.status_code == 404
        assert client.post(@@url@@, json=minimal, headers=headers).status_code == 422
        ''', parent=e.parent, url=lit(collection_url(e)), fk=lit(e.fk),
        minimal=_required_refs(e),
        children=lit(children_url(app, e)))


def _required_refs(e: Entity) -> str:
    """The required constant fields plus a fresh record for each required reference."""
    refs = [c for c in e.refs if c.required]
    base = lit(body(e, full=False))
    if not refs:
        return base
    return "{**" + base + ", " + ", ".join(f"{lit(c.ident)}: create_{c.ref}(client, headers)"
                                         for c in refs) + "}"


def _auth(app: AppModel) -> str:
    text = fill('''
        credentials = {"username": "alice", "password": @@password@@}
        registered = client.post("/api/auth/register", json=credentials)
        assert registered.status_code == 201 and registered.json()["username"] == "alice"
        assert "password" not in registered.text
        assert client.post("/api/auth/register", json=credentials).status_code == 409
        wrong = client.post("/api/auth/login", json={**credentials, "password": "wrong-password"})
        assert wrong.status_code == 401
        token = read(client.post("/api/auth/login", json=credentials))["token"]
        headers = {"Authorization": f"Bearer {token}"}
        assert read(client.get("/api/auth/me", headers=headers))["username"] == "alice"
        ''', password=lit(TEST_PASSWORD))
    e = next((x for x in app.entities if not x.shared), None)
    if e is not None:
        text += fill('''
            assert client.get(@@url@@).status_code == 401
            item_id = create_@@ident@@(client, headers)
            bob = login(client, "bobby")
            assert client.get(f"@@url_raw@@/{item_id}", headers=bob).status_code == 404
            assert read(client.get(@@url@@, headers=bob)) == []
            ''', url=lit(collection_url(e)), url_raw=collection_url(e), ident=e.ident)
    return text + fill('''
        assert client.post("/api/auth/logout", headers=headers).status_code == 204
        assert client.get("/api/auth/me", headers=headers).status_code == 401
        ''')


def _dashboard(app: AppModel) -> str:
    counts = {e.plural_ident: 0 for e in app.entities}
    calls = []
    for e in app.entities:
        calls.append(f"create_{e.ident}(client, headers)")
        for x in _made_by(app, e):
            counts[x.plural_ident] += 1
    status = {e.plural_ident: {s: counts[e.plural_ident] if s == e.states[0] else 0 for s in e.states}
              for e in app.entities if e.has_status}
    cookie = 'client.cookies.set("session", headers["Authorization"].split()[1])\n' if app.auth else ""
    data = "\n".join(calls) + "\n" + fill('''
        response = client.get("/api/dashboard", headers=headers)
        assert response.status_code == 200
        assert response.json() == @@expected@@
        ''', expected=lit(_with_totals(app, {"counts": counts, "status_counts": status}, counts)))
    if not app.html:
        return data   # a JSON API only: no dashboard page
    return data + cookie + fill('''
        page = client.get("/dashboard")
        assert page.status_code == 200 and @@heading@@ in page.text
        ''', heading=lit(dashboard_heading(app)))


def _with_totals(app: AppModel, expected: dict, counts: dict) -> dict:
    """The dashboard's totals after the makers ran (their bodies carry only required fields)."""
    totals = {}
    for e in app.entities:
        columns, group = totals_of(e) if e.has("aggregate") else ((), None)
        if not columns:
            continue
        n, values = counts[e.plural_ident], body(e, full=False)
        sums = {c: (values.get(c) or 0) * n for c in columns}
        totals[e.plural_ident] = {"count": n, "sums": sums}
        if group:
            totals[e.plural_ident]["groups"] = {str(values.get(group)): {"count": n, "sums": sums}}
    return {**expected, "totals": totals} if totals else expected


def _made_by(app: AppModel, e: Entity) -> list[Entity]:
    """Every record create_<e> makes: its parent's and required references' records, then its own."""
    made = []
    for dep in ([e.parent] if e.parent else []) + [c.ref for c in e.refs if c.required]:
        made += _made_by(app, app.entity(dep))
    return made + [e]


def _pages(app: AppModel) -> str:
    cookie = 'client.cookies.set("session", headers["Authorization"].split()[1])\n' if app.auth else ""
    text = cookie + fill('''
        for route in @@routes@@:
            response = client.get(route)
            assert response.status_code == 200 and "<form" in response.text, route
        ''', routes=lit(page_routes(app)))
    root = next((e for e in app.entities if not e.parent and e.text_column), None)
    if root is None:
        return text
    page = route_showing(app, root.ident)
    return text + fill('''
        form = {**@@form@@, @@col@@: "Made <via> the form", "next": @@page@@}
        response = client.post("/forms/@@slug@@", data=form, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == @@page@@
        assert "Made &lt;via&gt; the form" in client.get(@@page@@).text
        ''', form=lit(form_fields(root)), col=lit(root.text_column.ident), page=lit(page), slug=root.slug)
