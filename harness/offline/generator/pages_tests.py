"""Builds tests/test_pages.py: every page renders real data and a form; forms create records."""

from __future__ import annotations

from harness.offline.generator.api_py import collection_url
from harness.offline.generator.appmodel import AppModel, Entity, body
from harness.offline.generator.codegen import fill, lit, marks, module
from harness.offline.generator.pages_py import page_routes, route_showing
from harness.offline.generator.setup_files import TEST_PASSWORD
from harness.offline.generator.testkit import api_makers, router_imports, routers

_HEADER = '''
"""Tests for the HTML pages: rendering, escaping, form posts@@auth_doc@@."""

import pytest

@@imports@@

PAGE_ROUTES = @@routes@@
# entity -> (form slug, page that lists it, API collection URL, form fields, expected JSON)
FORMS = @@forms@@
PARENT_FK = @@parent_fk@@
PARENT_OF = @@parent_of@@
REFERENCES = @@references@@  # entity -> {field: referenced entity}


@pytest.fixture
def client(make_client):
    return make_client(@@routers@@)


@pytest.fixture
def headers(client@@login_arg@@):
    @@headers_body@@
'''

_COMMON = '''
@@marks@@def test_every_page_renders_a_form(client, headers):
    for route in PAGE_ROUTES:
        response = client.get(route)
        assert response.status_code == 200, route
        assert response.headers["content-type"].startswith("text/html")
        assert "<form" in response.text and "</html>" in response.text


@@marks@@def test_forms_create_records_and_pages_show_them(client, headers):
    created = {}
    for key, (slug, page, url, fields, expected) in FORMS.items():
        data = dict(fields)
        @@parent_fill@@
        response = client.post(f"/forms/{slug}", data={**data, "next": page}, follow_redirects=False)
        assert response.status_code == 303, response.text
        assert response.headers["location"] == page
        rows = client.get(url, headers=headers).json()
        assert len(rows) == 1
        assert {name: rows[0][name] for name in expected} == expected
        created[key] = rows[0]["id"]
        assert client.get(page).status_code == 200
    assert client.post("/forms/no-such-form", data={}).status_code == 404
'''

_ESCAPE = '''
@@marks@@def test_values_are_html_escaped(client, headers):
    create_@@ident@@(client, headers, **{@@col@@: "<b>Tom & Jerry</b>"})
    page = client.get(@@page@@)
    assert "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;" in page.text
    assert "<b>Tom" not in page.text
'''

_REQUIRED = '''
@@marks@@def test_invalid_form_is_422_with_the_form_again(client, headers):
    @@parent_setup@@
    response = client.post(@@action@@, data=@@data@@)
    assert response.status_code == 422
    assert "<form" in response.text and "error" in response.text
'''

_COMPLETE = '''
@@marks@@def test_complete_button_marks_done(client, headers):
    item_id = create_@@ident@@(client, headers)
    response = client.post(f"/forms/@@slug@@/{item_id}/complete", data={"next": "/"},
                           follow_redirects=False)
    assert response.status_code == 303
    assert client.get(f"@@url@@/{item_id}", headers=headers).json()["status"] == "done"
    assert client.post("/forms/@@slug@@/999999/complete", data={}).status_code == 404
'''

_EDIT_DELETE = '''
@@marks@@def test_edit_and_delete_forms(client, headers):
    item_id = create_@@ident@@(client, headers, **{@@col@@: "Before the edit"})
    form = client.get(f"/forms/@@slug@@/{item_id}/edit", params={"next": @@page@@})
    assert form.status_code == 200 and "Before the edit" in form.text and "<form" in form.text
    edited = client.post(f"/forms/@@slug@@/{item_id}/edit",
                         data={@@col@@: "After the edit", "next": @@page@@}, follow_redirects=False)
    assert edited.status_code == 303 and edited.headers["location"] == @@page@@
    assert client.get(f"@@url@@/{item_id}", headers=headers).json()[@@col@@] == "After the edit"
    assert "After the edit" in client.get(@@page@@).text
    gone = client.post(f"/forms/@@slug@@/{item_id}/delete", data={"next": @@page@@}, follow_redirects=False)
    assert gone.status_code == 303
    assert client.get(f"@@url@@/{item_id}", headers=headers).status_code == 404
    assert client.post(f"/forms/@@slug@@/{item_id}/delete", data={}).status_code == 404
    assert client.get(f"/forms/@@slug@@/{item_id}/edit").status_code == 404
'''

_AUTH = '''

@@marks@@def test_login_form_sets_the_session_cookie(client):
    assert "<form" in client.get("/login").text and "<form" in client.get("/register").text
    credentials = {"username": "carol", "password": @@password@@}
    assert client.post("/register", data=credentials, follow_redirects=False).status_code == 303
    assert client.post("/register", data=credentials).status_code == 409
    assert client.post("/register", data={"username": "x", "password": "short"}).status_code == 422
    wrong = client.post("/login", data={**credentials, "password": "wrong-password"}, follow_redirects=False)
    assert wrong.status_code == 401
    response = client.post("/login", data=credentials, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == @@home@@
    assert client.cookies.get("session")
    assert "carol" in client.get("/").text
    assert client.post("/logout", follow_redirects=False).status_code == 303
    assert "carol" not in client.get("/").text


@@marks@@def test_pages_need_a_session_and_hide_other_users_records(client, headers, login):
    @@secret_setup@@
    client.cookies.clear()
    for route in PAGE_ROUTES[1:]:
        response = client.get(route, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == "/login"
    for slug, *_ in FORMS.values():
        response = client.post(f"/forms/{slug}", data={}, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == "/login"
    bob = login(client, "bobby")
    client.cookies.set("session", bob["Authorization"].split()[1])
    for route in PAGE_ROUTES:
        assert "alice-secret" not in client.get(route).text
'''


def form_fields(e: Entity) -> dict[str, str]:
    out = {}
    for key, value in body(e).items():
        if isinstance(value, bool):
            if value:
                out[key] = "on"
        else:
            out[key] = str(value)
    return out


def test_pages_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    """The text of tests/test_pages.py."""
    idents = [e.ident for e in app.entities]
    auth = app.auth
    forms = {e.ident: (e.slug, route_showing(app, e.ident), collection_url(e), form_fields(e), body(e))
             for e in app.entities}
    header = fill(
        _HEADER, auth_doc=", sessions and isolation" if auth else "",
        imports=router_imports(idents, auth, "pages"),
        routes=lit(page_routes(app)), forms=_multiline(forms),
        parent_fk=lit({e.ident: e.fk for e in app.entities if e.fk}),
        parent_of=lit({e.ident: e.parent for e in app.entities if e.parent}),
        references=lit({e.ident: {c.ident: c.ref for c in e.refs} for e in app.entities if e.refs}),
        routers=routers(idents, auth) + (", " if idents or auth else "") + "pages.router",
        login_arg=", login" if auth else "",
        headers_body=('headers = login(client, "alice")\n'
                      'client.cookies.set("session", headers["Authorization"].split()[1])\n'
                      "return headers") if auth else "return {}")
    m = marks(req_ids)
    chunks = [header, *api_makers(app)]
    chunks.append(fill(_COMMON, marks=m, parent_fill=(
        "if key in PARENT_FK:\n    data[PARENT_FK[key]] = str(created[PARENT_OF[key]])\n"
        "for field, target in REFERENCES.get(key, {}).items():\n    data[field] = str(created[target])")))

    escapable = next((e for e in app.entities if e.display and e.display.type in ("str", "text")), None)
    if escapable:
        chunks.append(fill(_ESCAPE, marks=m, ident=escapable.ident, col=lit(escapable.display.ident),
                           page=lit(route_showing(app, escapable.ident))))
    # a form missing a required non-checkbox field is invalid (an unticked box is just False)
    required = next((e for e in app.entities
                     if any(c.required and c.type != "bool" for c in e.columns)), None)
    if required:
        chunks.append(fill(
            _REQUIRED, marks=m, action=lit(f"/forms/{required.slug}"),
            parent_setup=f"parent_id = create_{required.parent}(client, headers)" if required.fk else "",
            data=(f"{{{lit(required.fk)}: str(parent_id)}}" if required.fk else "{}")))
    if escapable:
        chunks.append(fill(_EDIT_DELETE, marks=m, ident=escapable.ident, slug=escapable.slug,
                           col=lit(escapable.display.ident), url=collection_url(escapable),
                           page=lit(route_showing(app, escapable.ident))))
    for e in app.entities:
        if e.has_status and not e.workflow:
            chunks.append(fill(_COMPLETE, marks=m, ident=e.ident, slug=e.slug, url=collection_url(e)))
            break
    if auth:
        secret = (f'create_{escapable.ident}(client, headers, **{{{lit(escapable.display.ident)}: '
                  '"alice-secret"})') if escapable else ""
        chunks.append(fill(_AUTH, marks=m, password=lit(TEST_PASSWORD), secret_setup=secret,
                           home=lit("/dashboard" if app.has_dashboard else "/")))
    return module(*chunks)


def _multiline(mapping: dict) -> str:
    if not mapping:
        return "{}"
    return "{\n" + "".join(f"    {lit(k)}: {lit(v)},\n" for k, v in mapping.items()) + "}"
