"""Builds src/dashboard.py (GET /api/dashboard JSON + GET /dashboard HTML) and its tests."""

from __future__ import annotations

from harness.offline.generator.api_features import totals_of
from harness.offline.generator.api_access import owner_expr
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.samples import body, distinct
from harness.offline.generator.codegen import fill, lit, marks, module
from harness.offline.generator.templates_dir import template

_DASHBOARD = template("dashboard_py/dashboard.tmpl")

_TESTS = template("dashboard_py/tests.tmpl")

_AUTH_TESTS = template("dashboard_py/auth_tests.tmpl")


_HTML_ROUTE = '@router.get("/dashboard", response_class=HTMLResponse)'
_PAGE_TEST = "def test_dashboard_page_shows_the_numbers("
_PAGE_REDIRECT = ('    page = client.get("/dashboard", follow_redirects=False)\n'
                  '    assert page.status_code == 303 and page.headers["location"] == "/login"\n')


def dashboard_py(app: AppModel) -> str:
    text = _dashboard_text(app)
    if app.html:
        return text
    # A JSON API only (AppModel.html): GET /api/dashboard, no HTML page
    text = text[:text.index(_HTML_ROUTE)].rstrip() + "\n"
    return text.replace("GET /dashboard     -> the same numbers as an HTML page.", "No HTML page: a JSON API only.")


def _dashboard_text(app: AppModel) -> str:
    counted = {e.plural_ident: (e.ident, e.plural) for e in app.entities}
    footer = ('<form method="post" action="/logout"><button type="submit">' + ("Đăng xuất" if app.language == "vi" else "Log out") + '</button></form>'
              if app.auth else
              '<form method="get" action="/dashboard"><button type="submit">' + ("Làm mới" if app.language == "vi" else "Refresh") + '</button></form>')
    return module(fill(
        _DASHBOARD, scope_doc="the signed-in user" if app.auth else "the application",
        html_doc=" (signed-in users only; others go to /login)" if app.auth and app.html else "",
        auth_import=("from src.auth import CurrentUser, page_user" if app.auth else "") + (
            "\nfrom src.people import as_viewer" if app.access else ""),
        responses=(', responses={401: {"description": "Missing or invalid bearer token"}}' if app.auth else ""),
        title=lit(app.title), lang=lit(app.language), counted=_dict_literal(counted),
        with_status=lit(tuple(e.plural_ident for e in app.entities if e.has_status)),
        totals=_dict_literal(_totals(app)),
        totals_doc=(',\n                       "totals": {"<plural>": {"count": n, "sums": {...}, '
                    '"groups": {...}}}') if _totals(app) else "",
        user=", user: CurrentUser" if app.auth else "", owner=owner_expr(app),
        page_user=('user = page_user(request, db)\nif user is None:\n'
                   '    return RedirectResponse("/login", status_code=303)') if app.auth else "",
        page_owner=owner_expr(app), footer_form=lit(footer)))


def dashboard_heading(app: AppModel) -> str:
    """The dashboard page's <h1> in the app's language."""
    return "<h1>Bảng điều khiển</h1>" if app.language == "vi" else "<h1>Dashboard</h1>"


def _totals(app: AppModel) -> dict[str, tuple[tuple[str, ...], str | None]]:
    out = {}
    for e in app.entities:
        if e.has("aggregate") and totals_of(e)[0]:
            out[e.plural_ident] = totals_of(e)
    return out


def _dict_literal(mapping: dict) -> str:
    if not mapping:
        return "{}"
    return "{\n" + "".join(f"    {lit(k)}: {lit(v)},\n" for k, v in mapping.items()) + "}"


def _seed_values(e: Entity) -> str:
    """Every constant field, the parent and the references seeded before it."""
    links = ([f"{lit(e.fk)}: ids[{lit(e.parent)}]"] if e.fk else []) + [
        f"{lit(c.ident)}: ids[{lit(c.ref)}]" for c in e.refs]
    links += [f"{lit(c.ident)}: {distinct(c, 'int(done)')}" for c in e.plain if c.unique]
    return "{**" + lit(body(e)) + "".join(", " + link for link in links) + "}"


def _expected_totals(app: AppModel, key: str, seeds: int) -> dict:
    e = next(x for x in app.entities if x.plural_ident == key)
    columns, group = totals_of(e)
    values = body(e)
    sums = {c: (values.get(c) or 0) * seeds for c in columns}
    out: dict = {"count": seeds, "sums": sums}
    if group:
        out["groups"] = {str(values.get(group)): {"count": seeds, "sums": sums}} if seeds else {}
    return out


def test_dashboard_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    seed_lines = []
    for e in app.entities:
        table = f"TABLES[{lit(e.ident)}]"
        seed_lines.append(f"ids[{lit(e.ident)}] = {table}.insert(conn, {_seed_values(e)}, owner_id)[\"id\"]")
        if e.has_status:
            seed_lines.append(f"if done:\n    {table}.set_status(conn, ids[{lit(e.ident)}], "
                              f"{lit(e.states[-1])}, owner_id)")
    status = {e.plural_ident: e.states for e in app.entities if e.has_status}
    empty = {"counts": {e.plural_ident: 0 for e in app.entities},
             "status_counts": {key: dict.fromkeys(states, 0) for key, states in status.items()}}
    filled = {"counts": {e.plural_ident: 2 for e in app.entities},
              "status_counts": {key: {s: int(s == states[0]) + int(s == states[-1]) for s in states}
                                for key, states in status.items()}}
    if _totals(app):
        empty["totals"] = {k: _expected_totals(app, k, 0) for k in _totals(app)}
        filled["totals"] = {k: _expected_totals(app, k, 2) for k in _totals(app)}
    auth = app.auth
    shared = {e.plural_ident for e in app.entities if e.shared}   # bob sees these too
    seen_by_bob = {part: {k: (filled[part][k] if k in shared else v) for k, v in values.items()}
                   for part, values in empty.items()}
    text = fill(
        _TESTS, modules=", ".join(["auth", "dashboard", "models"] if auth else ["dashboard", "models"]),
        routers="auth.router, dashboard.router" if auth else "dashboard.router",
        seed_lines="\n".join("        " + line for chunk in seed_lines for line in chunk.split("\n")),
        marks=marks(req_ids), login_arg=", login" if auth else "",
        who=('alice = login(client, "alice")\n'
             'alice_id = client.get("/api/auth/me", headers=alice).json()["id"]') if auth else "",
        alice_kw=", headers=alice" if auth else "", owner="alice_id" if auth else "None",
        empty=lit(empty), filled=lit(filled),
        bob_check=(f'bob = login(client, "bobby")\n'
                   f'assert client.get("/api/dashboard", headers=bob).json() == {lit(seen_by_bob)}') if auth else "",
        page_auth='client.cookies.set("session", alice["Authorization"].split()[1])' if auth else "",
        labels=lit([e.plural for e in app.entities]), heading=lit(dashboard_heading(app)))
    if not app.html:
        start = text.index(_PAGE_TEST)
        start = text.rindex("\n\n\n", 0, start)
        text = text[:start].rstrip() + "\n"
    if auth:
        text += "\n\n" + fill(_AUTH_TESTS, marks=marks(req_ids))
        text = text if app.html else text.replace(_PAGE_REDIRECT, "")
    return module(text)
