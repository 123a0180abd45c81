"""Builds src/dashboard.py (GET /api/dashboard JSON + GET /dashboard HTML) and its tests."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, body
from harness.offline.generator.codegen import fill, lit, marks, module

_DASHBOARD = '''
"""The dashboard of @@scope_doc@@.

GET /api/dashboard -> {"counts": {"<plural>": n, ...},
                       "status_counts": {"<plural>": {"open": n, "done": m}, ...}}
GET /dashboard     -> the same numbers as an HTML page@@html_doc@@.
"""

import sqlite3
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

@@auth_import@@
from src.models import TABLES, get_db

APP_TITLE = @@title@@
# dashboard key -> (table, label)
COUNTED: dict[str, tuple[str, str]] = @@counted@@
WITH_STATUS: tuple[str, ...] = @@with_status@@

router = APIRouter(tags=["dashboard"])
Db = Annotated[sqlite3.Connection, Depends(get_db)]


def summary(db: sqlite3.Connection, owner_id: int | None) -> dict[str, Any]:
    """Record counts (and open/done counts) of one owner's data."""
    return {
        "counts": {key: TABLES[table].count(db, owner_id) for key, (table, _) in COUNTED.items()},
        "status_counts": {key: TABLES[COUNTED[key][0]].status_counts(db, owner_id) for key in WITH_STATUS},
    }


@router.get("/api/dashboard")
def dashboard_data(db: Db@@user@@) -> dict[str, Any]:
    return summary(db, @@owner@@)


@router.get("/dashboard", response_class=HTMLResponse)
def dashboard_page(request: Request, db: Db) -> Response:
    @@page_user@@
    data = summary(db, @@page_owner@@)
    rows = []
    for key, (_, label) in COUNTED.items():
        status = data["status_counts"].get(key)
        cells = [escape(label), str(data["counts"][key])]
        cells += [str(status["open"]), str(status["done"])] if status else ["", ""]
        rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    return HTMLResponse(
        "<!doctype html><html lang=\\"en\\"><head><meta charset=\\"utf-8\\">"
        f"<title>Dashboard - {escape(APP_TITLE)}</title></head><body>"
        "<nav><a href=\\"/\\">Home</a></nav><h1>Dashboard</h1>"
        "<table><thead><tr><th>Records</th><th>Total</th><th>Open</th><th>Done</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"{FOOTER_FORM}</body></html>"
    )


FOOTER_FORM = @@footer_form@@
'''

_TESTS = '''
"""Tests for the dashboard: counts per owner, JSON shape, HTML page."""

from html import escape

import pytest

from src import @@modules@@
from src.models import TABLES


@pytest.fixture
def client(make_client):
    return make_client(@@routers@@)


def seed(owner_id, done=False):
    """One record of every entity (parents first) owned by `owner_id`."""
    conn = models.connect()
    try:
        ids = {}
@@seed_lines@@
        return ids
    finally:
        conn.close()


@@marks@@def test_dashboard_counts_records(client@@login_arg@@):
    @@who@@
    response = client.get("/api/dashboard"@@alice_kw@@)
    assert response.status_code == 200
    assert response.json() == @@empty@@
    seed(@@owner@@)
    seed(@@owner@@, done=True)
    assert client.get("/api/dashboard"@@alice_kw@@).json() == @@filled@@
    @@bob_check@@


@@marks@@def test_dashboard_page_shows_the_numbers(client@@login_arg@@):
    @@who@@
    seed(@@owner@@)
    @@page_auth@@
    page = client.get("/dashboard")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "<h1>Dashboard</h1>" in page.text and "<form" in page.text
    for label in @@labels@@:
        assert escape(label) in page.text
'''

_AUTH_TESTS = '''
@@marks@@def test_dashboard_needs_a_signed_in_user(client):
    response = client.get("/api/dashboard")
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    page = client.get("/dashboard", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/login"
'''


def dashboard_py(app: AppModel) -> str:
    counted = {e.plural_ident: (e.ident, e.plural) for e in app.entities}
    footer = ('<form method="post" action="/logout"><button type="submit">Log out</button></form>'
              if app.auth else
              '<form method="get" action="/dashboard"><button type="submit">Refresh</button></form>')
    return module(fill(
        _DASHBOARD, scope_doc="the signed-in user" if app.auth else "the application",
        html_doc=" (signed-in users only; others go to /login)" if app.auth else "",
        auth_import="from src.auth import CurrentUser, page_user" if app.auth else "",
        title=lit(app.title), counted=_dict_literal(counted),
        with_status=lit(tuple(e.plural_ident for e in app.entities if e.has_status)),
        user=", user: CurrentUser" if app.auth else "", owner='user["id"]' if app.auth else "None",
        page_user=('user = page_user(request, db)\nif user is None:\n'
                   '    return RedirectResponse("/login", status_code=303)') if app.auth else "",
        page_owner='user["id"]' if app.auth else "None", footer_form=lit(footer)))


def _dict_literal(mapping: dict) -> str:
    if not mapping:
        return "{}"
    return "{\n" + "".join(f"    {lit(k)}: {lit(v)},\n" for k, v in mapping.items()) + "}"


def test_dashboard_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    seed_lines = []
    for e in app.entities:
        values = f"{{**{lit(body(e, full=False))}, {lit(e.fk)}: ids[{lit(e.parent)}]}}" if e.fk \
            else lit(body(e, full=False))
        table = f"TABLES[{lit(e.ident)}]"
        seed_lines.append(f"ids[{lit(e.ident)}] = {table}.insert(conn, {values}, owner_id)[\"id\"]")
        if e.has_status:
            seed_lines.append(f"if done:\n    {table}.set_status(conn, ids[{lit(e.ident)}], \"done\", owner_id)")
    with_status = [e.plural_ident for e in app.entities if e.has_status]
    empty = {"counts": {e.plural_ident: 0 for e in app.entities},
             "status_counts": {key: {"open": 0, "done": 0} for key in with_status}}
    filled = {"counts": {e.plural_ident: 2 for e in app.entities},
              "status_counts": {key: {"open": 1, "done": 1} for key in with_status}}
    auth = app.auth
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
                   f'assert client.get("/api/dashboard", headers=bob).json() == {lit(empty)}') if auth else "",
        page_auth='client.cookies.set("session", alice["Authorization"].split()[1])' if auth else "",
        labels=lit([e.plural for e in app.entities]))
    if auth:
        text += "\n\n" + fill(_AUTH_TESTS, marks=marks(req_ids))
    return module(text)
