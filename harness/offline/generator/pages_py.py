"""Builds src/pages.py: server-rendered HTML pages with real data and forms (no JavaScript)."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import doc, fill, lit, module

_HEADER = '''
"""Server-rendered HTML pages of @@title_doc@@.

GET /                              the index: every section (list + add form)
GET <page route>                   the pages of the spec: @@page_doc@@
POST /forms/<slug>                 create a record from a form, then 303 back to the page
POST /forms/<slug>/{item_id}/complete   mark a record done (entities with a status)
@@auth_doc@@
Every value is HTML-escaped. Forms are parsed from the urlencoded body (no extra dependency) and
validated by the API's pydantic models.
"""

import sqlite3
from dataclasses import dataclass
from html import escape
from typing import Annotated, Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ValidationError

@@imports@@
from src.models import TABLES, get_db

APP_TITLE = @@title@@
MAX_ID = 2**63 - 1
MAX_FORM_BYTES = 1_000_000
HOME = @@home@@
INPUTS = {
    "str": 'type="text" maxlength="200"',
    "int": 'type="number" step="1"',
    "float": 'type="number" step="any"',
    "date": 'type="date"',
    "datetime": 'type="datetime-local" step="1"',
}

router = APIRouter(tags=["pages"])
Db = Annotated[sqlite3.Connection, Depends(get_db)]
RowId = Annotated[int, Path(ge=-MAX_ID - 1, le=MAX_ID)]


@dataclass(frozen=True)
class Section:
    """How one entity is listed and created: `fields` are (key, label, type, required)."""

    title: str
    slug: str
    model: type[BaseModel]
    fields: tuple[tuple[str, str, str, bool], ...]
    parent: str | None = None
    fk: str | None = None
    status: bool = False


SECTIONS: dict[str, Section] = {
@@sections@@
}
BY_SLUG = {section.slug: key for key, section in SECTIONS.items()}
# (route, title, entity keys shown)
PAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = @@pages@@
NAV = @@nav@@
ALLOWED_NEXT = {"/"} | {route for route, _, _ in PAGES}
'''

_RENDER = '''
def layout(title: str, body: str, status_code: int = 200) -> HTMLResponse:
    nav = " ".join(f'<a href="{escape(route)}">{escape(label)}</a>' for route, label in NAV)
    return HTMLResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)} - {escape(APP_TITLE)}</title></head><body>"
        f"<nav>{nav}</nav><h1>{escape(title)}</h1>{body}</body></html>",
        status_code=status_code,
    )


def label_of(key: str, row: dict[str, Any]) -> str:
    fields = SECTIONS[key].fields
    value = row.get(fields[0][0]) if fields else None
    return f"{value} (#{row['id']})" if value not in (None, "") else f"#{row['id']}"


def render_item(key: str, row: dict[str, Any], back: str) -> str:
    section = SECTIONS[key]
    parts = []
    for name, label, kind, _ in section.fields:
        value = row.get(name)
        if value is not None and value != "":
            shown = ("yes" if value else "no") if kind == "bool" else str(value)
            parts.append(f"{escape(label)}: {escape(shown)}")
    text = "; ".join(parts) or f"#{row['id']}"
    if section.status:
        text += f" [{escape(row['status'])}]"
        if row["status"] != "done":
            text += (
                f'<form method="post" action="/forms/{escape(section.slug)}/{row["id"]}/complete">'
                f'<input type="hidden" name="next" value="{escape(back)}">'
                '<button type="submit">Complete</button></form>'
            )
    return f"<li>{text}</li>"


def render_form(db: sqlite3.Connection, key: str, owner_id: int | None, back: str,
                errors: list[str]) -> str:
    section = SECTIONS[key]
    controls = []
    if section.parent and section.fk:
        options = "".join(
            f'<option value="{row["id"]}">{escape(label_of(section.parent, row))}</option>'
            for row in TABLES[section.parent].rows(db, owner_id, 500, 0)
        )
        controls.append(f"<label>{escape(SECTIONS[section.parent].title)} "
                        f'<select name="{escape(section.fk)}" required>{options}</select></label>')
    for name, label, kind, required in section.fields:
        flag = " required" if required else ""
        if kind == "text":
            control = f'<textarea name="{escape(name)}" maxlength="5000"{flag}></textarea>'
        elif kind == "bool":
            control = f'<input type="checkbox" name="{escape(name)}" value="on">'
        else:
            control = f'<input name="{escape(name)}" {INPUTS[kind]}{flag}>'
        controls.append(f"<label>{escape(label)} {control}</label>")
    problems = "".join(f'<p class="error">{escape(error)}</p>' for error in errors)
    return (
        f'<form method="post" action="/forms/{escape(section.slug)}">{problems}'
        f'<input type="hidden" name="next" value="{escape(back)}">{"".join(controls)}'
        '<button type="submit">Add</button></form>'
    )


def render_section(db: sqlite3.Connection, key: str, owner_id: int | None, back: str,
                   errors: list[str] | None = None) -> str:
    section = SECTIONS[key]
    rows = TABLES[key].rows(db, owner_id, 500, 0)
    items = "".join(render_item(key, row, back) for row in rows) or "<li>Nothing yet.</li>"
    return (f'<section id="{escape(section.slug)}"><h2>{escape(section.title)}</h2>'
            f"<ul>{items}</ul>{render_form(db, key, owner_id, back, errors or [])}</section>")


async def read_form(request: Request) -> dict[str, str]:
    raw = (await request.body())[:MAX_FORM_BYTES]
    return dict(parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True))


def form_values(key: str, form: dict[str, str]) -> dict[str, Any]:
    """The record fields present in a submitted form (checkboxes are True/False)."""
    section = SECTIONS[key]
    values: dict[str, Any] = {}
    if section.fk and form.get(section.fk, "").strip():
        values[section.fk] = form[section.fk].strip()
    for name, _, kind, _ in section.fields:
        if kind == "bool":
            values[name] = name in form
        elif form.get(name, "").strip():
            values[name] = form[name]
    return values


def safe_next(form: dict[str, str]) -> str:
    """Only redirect back to one of our own pages."""
    target = form.get("next", "/")
    return target if target in ALLOWED_NEXT else "/"


def show_sections(db: sqlite3.Connection, user: dict[str, Any] | None, title: str,
                  keys: tuple[str, ...], back: str) -> HTMLResponse:
    owner_id = user["id"] if user else None
    body = "".join(render_section(db, key, owner_id, back) for key in keys)
    return layout(title, (body or "<p>Nothing to show yet.</p>") + account_html(user))
'''

_ROUTES = '''
@router.get("/", response_class=HTMLResponse)
def index(request: Request, db: Db) -> Response:
    @@index_user@@
    return show_sections(db, @@user@@, APP_TITLE, tuple(SECTIONS), "/")


def _add_page(route: str, title: str, keys: tuple[str, ...]) -> None:
    def show(request: Request, db: Db) -> Response:
        @@page_user@@
        return show_sections(db, @@user@@, title, keys, route)

    router.add_api_route(route, show, methods=["GET"], response_class=HTMLResponse,
                         name=f"page {route}")


for _route, _title, _keys in PAGES:
    _add_page(_route, _title, _keys)


@router.post("/forms/{slug}")
async def create_from_form(slug: str, request: Request, db: Db) -> Response:
    @@page_user@@
    owner_id = @@owner@@
    key = BY_SLUG.get(slug)
    if key is None:
        return layout("Not found", "<p>Unknown form.</p>", 404)
    section, form = SECTIONS[key], await read_form(request)
    back = safe_next(form)
    try:
        payload = section.model.model_validate(form_values(key, form))
    except ValidationError as exc:
        errors = [f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()]
        return layout(section.title, render_section(db, key, owner_id, back, errors), 422)
    values = payload.model_dump(mode="json", by_alias=True)
    if section.parent and TABLES[section.parent].get(db, values[section.fk], owner_id) is None:
        errors = [f"{SECTIONS[section.parent].title}: not found"]
        return layout(section.title, render_section(db, key, owner_id, back, errors), 404)
    TABLES[key].insert(db, values, owner_id)
    return RedirectResponse(back, status_code=303)


@router.post("/forms/{slug}/{item_id}/complete")
async def complete_from_form(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    @@page_user@@
    owner_id = @@owner@@
    key = BY_SLUG.get(slug)
    if key is None or not SECTIONS[key].status or TABLES[key].get(db, item_id, owner_id) is None:
        return layout("Not found", "<p>No such record.</p>", 404)
    TABLES[key].set_status(db, item_id, "done", owner_id)
    return RedirectResponse(safe_next(await read_form(request)), status_code=303)
'''

_NO_AUTH = '''
def account_html(user: dict[str, Any] | None) -> str:
    return ""
'''

_AUTH = '''
LOGIN_FORM = (
    '<form method="post" action="/login">'
    '<label>Username <input name="username" required minlength="3" maxlength="50"></label>'
    '<label>Password <input name="password" type="password" required minlength="8" maxlength="128"></label>'
    '<button type="submit">Log in</button></form><p><a href="/register">Create an account</a></p>'
)
REGISTER_FORM = LOGIN_FORM.replace('action="/login"', 'action="/register"').replace(
    "Log in</button>", "Create account</button>").replace(
    '<p><a href="/register">Create an account</a></p>', '<p><a href="/login">Log in</a></p>')


def account_html(user: dict[str, Any] | None) -> str:
    if user is None:
        return ""
    return (f"<p>Signed in as {escape(user['username'])}</p>"
            '<form method="post" action="/logout"><button type="submit">Log out</button></form>')


def to_login() -> RedirectResponse:
    return RedirectResponse("/login", status_code=303)


@router.get("/login", response_class=HTMLResponse)
def login_page() -> Response:
    return layout("Log in", LOGIN_FORM)


@router.post("/login")
async def login_submit(request: Request, db: Db) -> Response:
    """Check the credentials, set the `session` cookie, go to the home page."""
    form = await read_form(request)
    username, password = form.get("username", ""), form.get("password", "")
    user = None
    if 3 <= len(username) <= 50 and 8 <= len(password) <= 128:
        user = authenticate(db, username, password)
    if user is None:
        return layout("Log in", '<p class="error">Invalid username or password.</p>' + LOGIN_FORM, 401)
    response = RedirectResponse(HOME, status_code=303)
    response.set_cookie(COOKIE_NAME, start_session(db, user["id"]), max_age=SESSION_DAYS * 86400,
                        httponly=True, samesite="lax")
    return response


@router.get("/register", response_class=HTMLResponse)
def register_page() -> Response:
    return layout("Create an account", REGISTER_FORM)


@router.post("/register")
async def register_submit(request: Request, db: Db) -> Response:
    form = await read_form(request)
    try:
        credentials = Credentials.model_validate(
            {"username": form.get("username", ""), "password": form.get("password", "")})
    except ValidationError as exc:
        problems = "".join(f'<p class="error">{escape(str(e["loc"][-1]))}: {escape(e["msg"])}</p>'
                           for e in exc.errors())
        return layout("Create an account", problems + REGISTER_FORM, 422)
    if create_user(db, credentials.username, credentials.password) is None:
        return layout("Create an account", '<p class="error">Username already taken.</p>' + REGISTER_FORM, 409)
    return RedirectResponse("/login", status_code=303)


@router.post("/logout")
def logout_submit(request: Request, db: Db) -> Response:
    token = request_token(request)
    if token:
        end_session(db, token)
    response = to_login()
    response.delete_cookie(COOKIE_NAME)
    return response
'''

_AUTH_IMPORT = ("from src.auth import (COOKIE_NAME, SESSION_DAYS, Credentials, authenticate, "
                "create_user, end_session,\n                      page_user, request_token, start_session)")


def pages_py(app: AppModel) -> str:
    """The text of src/pages.py."""
    auth = app.auth
    modules = [f"api_{e.ident}" for e in app.entities]
    imports = (f"from src import {', '.join(modules)}\n" if modules else "") + (_AUTH_IMPORT if auth else "")
    pages = "".join(f"    ({lit(p.route)}, {lit(p.name)}, {lit(_shown(app, p.entity))}),\n" for p in app.pages)
    nav = [("/", "Home")] + [(p.route, p.name) for p in app.pages]
    nav += [("/dashboard", "Dashboard")] if app.has_dashboard else []
    auth_doc = ("GET/POST /login, GET/POST /register, POST /logout: accounts; pages need the `session`\n"
                "cookie that /login sets (others are sent to /login; / shows a login form)."
                if auth else "")
    header = fill(
        _HEADER, title_doc=doc(app.title),
        page_doc=", ".join(p.route for p in app.pages) or "(none besides /)", auth_doc=auth_doc,
        imports=imports.rstrip("\n"), title=lit(app.title), home=lit("/dashboard" if app.has_dashboard else "/"),
        sections="\n".join(_section(app, e) for e in app.entities), pages=f"(\n{pages})" if pages else "()",
        nav=lit(tuple(nav)))
    page_user = ("user = page_user(request, db)\nif user is None:\n    return to_login()") if auth else ""
    index_user = ("user = page_user(request, db)\nif user is None:\n"
                  "    return layout(APP_TITLE, LOGIN_FORM)") if auth else ""
    routes = fill(_ROUTES, page_user=page_user, index_user=index_user,
                  user="user" if auth else "None", owner='user["id"]' if auth else "None")
    return module(header, _RENDER, fill(_AUTH) if auth else _NO_AUTH, routes)


def _shown(app: AppModel, entity: str | None) -> tuple[str, ...]:
    return (entity,) if entity else tuple(e.ident for e in app.entities)


def _section(app: AppModel, e: Entity) -> str:
    fields = tuple((c.ident, c.label, c.type, c.required) for c in e.columns)
    lines = [f"    {lit(e.ident)}: Section(", f"        title={lit(e.plural[:1].upper() + e.plural[1:])},",
             f"        slug={lit(e.slug)},", f"        model=api_{e.ident}.{e.camel}Create,",
             f"        fields={lit(fields)},"]
    if e.parent:
        lines += [f"        parent={lit(e.parent)},", f"        fk={lit(e.fk)},"]
    if e.has_status:
        lines.append("        status=True,")
    return "\n".join(lines + ["    ),"])


def page_routes(app: AppModel) -> list[str]:
    """Every GET page route of the app, "/" first."""
    return ["/"] + [p.route for p in app.pages]


def route_showing(app: AppModel, ident: str) -> str:
    """A page that lists the entity: its own page when the spec has one, else the index."""
    return next((p.route for p in app.pages if p.entity == ident), "/")
