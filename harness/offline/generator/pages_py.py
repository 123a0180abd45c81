"""Builds src/pages.py: server-rendered HTML pages with real data and forms (no JavaScript).

The rendering pieces are the skeleton's src/page_parts.py and src/ui.py; this module writes the
per-app part: the sections (one per entity, a control per field with the kind's input), the page
routes and the form handlers, which call the API handlers so every rule holds for forms too.
"""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Column, Entity
from harness.offline.generator.codegen import doc, fill, lit, module

_HEADER = '''
"""Server-rendered HTML pages of @@title_doc@@.

GET /                                   the index: every section (table, search, add form)
GET <page route>                        the pages of the spec: @@page_doc@@
GET /style.css                          the stylesheet
POST /forms/<slug>                      create a record from a form, then 303 back to the page
GET, POST /forms/<slug>/{item_id}/edit  edit a record
POST /forms/<slug>/{item_id}/delete     delete a record (409 while other records refer to it)
POST /forms/<slug>/{item_id}/complete   mark a record done (entities with an open/done status)
@@auth_doc@@
Forms go through the API's handlers, so validation, references, workflows and bookings behave
exactly as over JSON.
"""

import sqlite3
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import ValidationError

@@imports@@
from src.models import TABLES, get_db
from src.page_parts import (Control, Section, error_lines, form_values, read_form, render_form,
                            render_table, search_html)
from src.ui import STYLESHEET, layout, words

APP_TITLE = @@title@@
LANG = @@lang@@
MAX_ID = 2**63 - 1
HOME = @@home@@
AUTH = @@auth@@

router = APIRouter(tags=["pages"])
Db = Annotated[sqlite3.Connection, Depends(get_db)]
RowId = Annotated[int, Path(ge=-MAX_ID - 1, le=MAX_ID)]

SECTIONS: dict[str, Section] = {
@@sections@@
}
BY_SLUG = {section.slug: key for key, section in SECTIONS.items()}
# (route, title, entity keys shown)
PAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = @@pages@@
NAV = @@nav@@
ALLOWED_NEXT = {"/"} | {route for route, _, _ in PAGES}
'''

_BODY = '''
def page(title: str, body: str, status_code: int = 200) -> HTMLResponse:
    return layout(title, body, app_title=APP_TITLE, nav=NAV, lang=LANG, status_code=status_code)


def call(handler: Any, *args: Any, user: dict[str, Any] | None) -> Any:
    """Run an API handler as a page: with the signed-in user when the app has accounts."""
    return handler(*args, user) if AUTH else handler(*args)


def render_section(db: sqlite3.Connection, key: str, owner_id: int | None, back: str,
                   errors: list[str] | None = None, query: str = "") -> str:
    section = SECTIONS[key]
    table = TABLES[key]
    rows = (table.query(db, owner_id, q=query, limit=500) if section.search and query
            else table.rows(db, owner_id, 500, 0))
    return (f'<section id="{section.slug}"><h2>{escape(section.title)}</h2>'
            f"{search_html(section, query, LANG)}{render_table(section, rows, back, LANG)}"
            f"{render_form(db, SECTIONS, key, owner_id, back, errors or [], LANG)}</section>")


def safe_next(form: dict[str, str]) -> str:
    """Only redirect back to one of our own pages."""
    target = form.get("next", "/")
    return target if target in ALLOWED_NEXT else "/"


def show_sections(request: Request, db: sqlite3.Connection, user: dict[str, Any] | None, title: str,
                  keys: tuple[str, ...], back: str) -> HTMLResponse:
    owner_id = user["id"] if user else None
    query = request.query_params.get("q", "")[:200]
    body = "".join(render_section(db, key, owner_id, back, query=query) for key in keys)
    return page(title, (body or f"<p>{escape(words(LANG)['nothing'])}</p>") + account_html(user))


def problem(section_key: str, db: sqlite3.Connection, owner_id: int | None, back: str,
            errors: list[str], status_code: int) -> HTMLResponse:
    section = SECTIONS[section_key]
    return page(section.title, render_section(db, section_key, owner_id, back, errors), status_code)
'''

_ROUTES = '''
@router.get("/style.css", include_in_schema=False)
def stylesheet() -> Response:
    return PlainTextResponse(STYLESHEET, media_type="text/css")


@router.get("/", response_class=HTMLResponse)
def index(request: Request, db: Db) -> Response:
    @@index_user@@
    return show_sections(request, db, @@user@@, APP_TITLE, tuple(SECTIONS), "/")


def _add_page(route: str, title: str, keys: tuple[str, ...]) -> None:
    def show(request: Request, db: Db) -> Response:
        @@page_user@@
        return show_sections(request, db, @@user@@, title, keys, route)

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
        return page(words(LANG)["not_found"], "<p>Unknown form.</p>", 404)
    section, form = SECTIONS[key], await read_form(request)
    back = safe_next(form)
    try:
        payload = section.model.model_validate(form_values(section, form))
        call(section.api.create_item, payload, db, user=@@user@@)
    except ValidationError as exc:
        return problem(key, db, owner_id, back, error_lines(exc), 422)
    except HTTPException as exc:
        return problem(key, db, owner_id, back, [str(exc.detail)], exc.status_code)
    return RedirectResponse(back, status_code=303)


@router.get("/forms/{slug}/{item_id}/edit", response_class=HTMLResponse)
def edit_page(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    @@page_user@@
    owner_id = @@owner@@
    key = BY_SLUG.get(slug)
    row = TABLES[key].get(db, item_id, owner_id) if key else None
    if row is None:
        return page(words(LANG)["not_found"], "<p>No such record.</p>", 404)
    back = safe_next(dict(request.query_params))
    form = render_form(db, SECTIONS, key, owner_id, back, [], LANG, row)
    return page(f"{words(LANG)['edit']}: {SECTIONS[key].title} #{item_id}", form)


@router.post("/forms/{slug}/{item_id}/edit")
async def edit_from_form(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    @@page_user@@
    owner_id = @@owner@@
    key = BY_SLUG.get(slug)
    row = TABLES[key].get(db, item_id, owner_id) if key else None
    if row is None:
        return page(words(LANG)["not_found"], "<p>No such record.</p>", 404)
    section, form = SECTIONS[key], await read_form(request)
    back = safe_next(form)
    try:
        payload = section.update_model.model_validate(form_values(section, form, editing=True))
        call(section.api.update_item, item_id, payload, db, user=@@user@@)
    except (ValidationError, HTTPException) as exc:
        errors = error_lines(exc) if isinstance(exc, ValidationError) else [str(exc.detail)]
        status_code = 422 if isinstance(exc, ValidationError) else exc.status_code
        form_html = render_form(db, SECTIONS, key, owner_id, back, errors, LANG, row)
        return page(f"{words(LANG)['edit']}: {section.title} #{item_id}", form_html, status_code)
    return RedirectResponse(back, status_code=303)


@router.post("/forms/{slug}/{item_id}/delete")
async def delete_from_form(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    @@page_user@@
    owner_id = @@owner@@
    key = BY_SLUG.get(slug)
    if key is None:
        return page(words(LANG)["not_found"], "<p>Unknown form.</p>", 404)
    back = safe_next(await read_form(request))
    try:
        call(SECTIONS[key].api.delete_item, item_id, db, user=@@user@@)
    except HTTPException as exc:
        return problem(key, db, owner_id, back, [str(exc.detail)], exc.status_code)
    return RedirectResponse(back, status_code=303)


@router.post("/forms/{slug}/{item_id}/complete")
async def complete_from_form(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    @@page_user@@
    owner_id = @@owner@@
    key = BY_SLUG.get(slug)
    if key is None or not SECTIONS[key].complete or TABLES[key].get(db, item_id, owner_id) is None:
        return page(words(LANG)["not_found"], "<p>No such record.</p>", 404)
    TABLES[key].set_status(db, item_id, "done", owner_id)
    return RedirectResponse(safe_next(await read_form(request)), status_code=303)
'''

_NO_AUTH = '''
def account_html(user: dict[str, Any] | None) -> str:
    return ""
'''

_AUTH = '''
def _credentials_form(action: str, button: str, other: str, other_label: str) -> str:
    w = words(LANG)
    return (
        f'<form method="post" action="{action}">'
        f'<label>{w["username"]} <input name="username" required minlength="3" maxlength="50"></label>'
        f'<label>{w["password"]} <input name="password" type="password" required minlength="8" '
        f'maxlength="128"></label><button type="submit">{button}</button></form>'
        f'<p><a href="{other}">{other_label}</a></p>'
    )


LOGIN_FORM = _credentials_form("/login", words(LANG)["login"], "/register", words(LANG)["register"])
REGISTER_FORM = _credentials_form("/register", words(LANG)["register"], "/login", words(LANG)["login"])


def account_html(user: dict[str, Any] | None) -> str:
    if user is None:
        return ""
    w = words(LANG)
    return (f"<p>{escape(w['signed_in'])} {escape(user['username'])}</p>"
            f'<form method="post" action="/logout"><button type="submit">{w["logout"]}</button></form>')


def to_login() -> RedirectResponse:
    return RedirectResponse("/login", status_code=303)


@router.get("/login", response_class=HTMLResponse)
def login_page() -> Response:
    return page(words(LANG)["login"], LOGIN_FORM)


@router.post("/login")
async def login_submit(request: Request, db: Db) -> Response:
    """Check the credentials, set the `session` cookie, go to the home page."""
    form = await read_form(request)
    username, password = form.get("username", ""), form.get("password", "")
    throttle, client = login_throttle(request), client_address(request)
    wait = throttle.wait(username, client)
    if wait:
        return page(words(LANG)["login"], f'<p class="error">Too many failed logins; try again in '
                    f"{wait} s.</p>" + LOGIN_FORM, 429)
    user = None
    if 3 <= len(username) <= 50 and 8 <= len(password) <= 128:
        user = authenticate(db, username, password)
    if user is None:
        throttle.failed(username, client)
        return page(words(LANG)["login"], '<p class="error">Invalid username or password.</p>' + LOGIN_FORM, 401)
    throttle.succeeded(username)
    response = RedirectResponse(HOME, status_code=303)
    response.set_cookie(COOKIE_NAME, start_session(db, user["id"]), max_age=SESSION_DAYS * 86400,
                        httponly=True, samesite="lax")
    return response


@router.get("/register", response_class=HTMLResponse)
def register_page() -> Response:
    return page(words(LANG)["register"], REGISTER_FORM)


@router.post("/register")
async def register_submit(request: Request, db: Db) -> Response:
    form = await read_form(request)
    try:
        credentials = Credentials.model_validate(
            {"username": form.get("username", ""), "password": form.get("password", "")})
    except ValidationError as exc:
        problems = "".join(f'<p class="error">{escape(line)}</p>' for line in error_lines(exc))
        return page(words(LANG)["register"], problems + REGISTER_FORM, 422)
    if create_user(db, credentials.username, credentials.password) is None:
        return page(words(LANG)["register"], '<p class="error">Username already taken.</p>' + REGISTER_FORM, 409)
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

_AUTH_IMPORT = ("from src.auth import (COOKIE_NAME, SESSION_DAYS, Credentials, authenticate, client_address,\n"
                "                      create_user, end_session, login_throttle, page_user, request_token,\n"
                "                      start_session)")


def pages_py(app: AppModel) -> str:
    """The text of src/pages.py."""
    auth = app.auth
    modules = [f"api_{e.ident}" for e in app.entities]
    imports = (f"from src import {', '.join(modules)}\n" if modules else "") + (_AUTH_IMPORT if auth else "")
    pages = "".join(f"    ({lit(p.route)}, {lit(p.name)}, {lit(_shown(app, p.entity))}),\n" for p in app.pages)
    vi = app.language == "vi"
    nav = [("/", "Trang chủ" if vi else "Home")] + [(p.route, p.name) for p in app.pages]
    nav += [("/dashboard", "Bảng điều khiển" if vi else "Dashboard")] if app.has_dashboard else []
    auth_doc = ("GET/POST /login, GET/POST /register, POST /logout: accounts; pages need the `session`\n"
                "cookie that /login sets (others are sent to /login; / shows a login form)."
                if auth else "")
    header = fill(
        _HEADER, title_doc=doc(app.title),
        page_doc=", ".join(p.route for p in app.pages) or "(none besides /)", auth_doc=auth_doc,
        imports=imports.rstrip("\n"), title=lit(app.title), lang=lit(app.language),
        home=lit("/dashboard" if app.has_dashboard else "/"), auth=lit(auth),
        sections="\n".join(_section(app, e) for e in app.entities), pages=f"(\n{pages})" if pages else "()",
        nav=lit(tuple(nav)))
    page_user = ("user = page_user(request, db)\nif user is None:\n    return to_login()") if auth else ""
    index_user = ("user = page_user(request, db)\nif user is None:\n"
                  "    return page(APP_TITLE, LOGIN_FORM)") if auth else ""
    routes = fill(_ROUTES, page_user=page_user, index_user=index_user,
                  user="user" if auth else "None", owner='user["id"]' if auth else "None")
    return module(header, _BODY, fill(_AUTH) if auth else _NO_AUTH, routes)


def _shown(app: AppModel, entity: str | None) -> tuple[str, ...]:
    return (entity,) if entity else tuple(e.ident for e in app.entities)


def _control(c: Column) -> str:
    lo, hi = (int(c.lo), int(c.hi)) if c.kind == "rating" else (0, 0)
    attrs = c.entry.html.format(lo=lo, hi=hi)
    args = [lit(c.ident), lit(c.label), lit(c.kind), lit(c.required), f"attrs={lit(attrs)}"]
    if c.values:
        args.append(f"options={lit(c.values)}")
    if c.ref:
        args.append(f"ref={lit(c.ref)}")
    return f"            Control({', '.join(args)}),"


def _section(app: AppModel, e: Entity) -> str:
    lines = [f"    {lit(e.ident)}: Section(", f"        title={lit(e.plural[:1].upper() + e.plural[1:])},",
             f"        slug={lit(e.slug)},", f"        model=api_{e.ident}.{e.camel}Create,",
             f"        update_model=api_{e.ident}.{e.camel}Update,",
             "        controls=(", *[_control(c) for c in e.columns], "        ),",
             f"        api=api_{e.ident},"]
    if e.parent:
        parent = app.entity(e.parent)
        lines += [f"        parent={lit(e.parent)},", f"        fk={lit(e.fk)},",
                  f"        parent_title={lit(parent.name[:1].upper() + parent.name[1:])},"]
    if e.has_status and not e.workflow:
        lines.append("        complete=True,")
    if e.workflow:
        lines.append(f"        states={lit(e.states)},")
    if e.has("search"):
        lines.append("        search=True,")
    return "\n".join(lines + ["    ),"])


def page_routes(app: AppModel) -> list[str]:
    """Every GET page route of the app, "/" first."""
    return ["/"] + [p.route for p in app.pages]


def route_showing(app: AppModel, ident: str) -> str:
    """A page that lists the entity: its own page when the spec has one, else the index."""
    return next((p.route for p in app.pages if p.entity == ident), "/")
