"""Server-rendered HTML pages of Simple Todo App.

GET /                                   the index: every section (table, search, filters, add form)
GET <page route>                        the pages of the spec: (none besides /)
GET /style.css                          the stylesheet
POST /forms/<slug>                      create a record from a form, then 303 back to the page
GET, POST /forms/<slug>/{item_id}/edit  edit a record
POST /forms/<slug>/{item_id}/delete     delete a record (409 while other records refer to it)
POST /forms/<slug>/{item_id}/complete   mark a record done (entities with an open/done status)
Forms go through the API's handlers, so validation, references, workflows and bookings behave
exactly as over JSON.
"""

import sqlite3
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import ValidationError

from src import api_todo
from src.models import TABLES, get_db
from src.page_parts import (Control, PageFilter, Section, chosen_filters, error_lines, form_values, read_form,
                            render_form, render_table, search_html)
from src.ui import STYLESHEET, layout, words

APP_TITLE = 'Simple Todo App'
LANG = 'en'
MAX_ID = 2**63 - 1
HOME = '/'
AUTH = False

router = APIRouter(tags=["pages"])
FORM_RESPONSES: dict[int | str, dict[str, str]] = {  # what the form routes answer besides 200/303
    404: {"description": "Unknown form or no such record (or not yours)"},
    409: {"description": "Conflict: still referred to, a status move not allowed, or a clash"},
    422: {"description": "Invalid input: the form shows what to fix"},
}
Db = Annotated[sqlite3.Connection, Depends(get_db)]
RowId = Annotated[int, Path(ge=-MAX_ID - 1, le=MAX_ID)]

SECTIONS: dict[str, Section] = {
    'todo': Section(
        title='Todos',
        slug='todos',
        model=api_todo.TodoCreate,
        update_model=api_todo.TodoUpdate,
        controls=(
            Control('title', 'title', 'short_text', True, attrs='type="text" maxlength="200"'),
        ),
        api=api_todo,
        complete=True,
    ),
}
BY_SLUG = {section.slug: key for key, section in SECTIONS.items()}
# (route, title, entity keys shown)
PAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
NAV = (('/', 'Home'),)
ALLOWED_NEXT = {"/"} | {route for route, _, _ in PAGES}


def page(title: str, body: str, status_code: int = 200) -> HTMLResponse:
    return layout(title, body, app_title=APP_TITLE, nav=NAV, lang=LANG, status_code=status_code)


def call(handler: Any, *args: Any, user: dict[str, Any] | None) -> Any:
    """Run an API handler as a page: with the signed-in user when the app has accounts."""
    return handler(*args, user) if AUTH else handler(*args)


def render_section(db: sqlite3.Connection, key: str, owner_id: int | None, back: str,
                   errors: list[str] | None = None, query: str = "", params: Any = None) -> str:
    section = SECTIONS[key]
    table = TABLES[key]
    chosen = chosen_filters(section, params or {})
    searched = section.search and query
    rows = (table.query(db, owner_id, q=query if searched else None, equals=chosen, limit=500)
            if searched or chosen else table.rows(db, owner_id, 500, 0))
    form = search_html(section, query, LANG, db=db, section_of=SECTIONS, owner_id=owner_id, chosen=chosen)
    return (f'<section id="{section.slug}"><h2>{escape(section.title)}</h2>'
            f"{form}{render_table(section, rows, back, LANG)}"
            f"{render_form(db, SECTIONS, key, owner_id, back, errors or [], LANG)}</section>")


def safe_next(form: dict[str, str]) -> str:
    """Only redirect back to one of our own pages."""
    target = form.get("next", "/")
    return target if target in ALLOWED_NEXT else "/"


def show_sections(request: Request, db: sqlite3.Connection, user: dict[str, Any] | None, title: str,
                  keys: tuple[str, ...], back: str) -> HTMLResponse:
    owner_id = user["id"] if user else None
    query = request.query_params.get("q", "")[:200]
    params = request.query_params
    body = "".join(render_section(db, key, owner_id, back, query=query, params=params) for key in keys)
    return page(title, (body or f"<p>{escape(words(LANG)['nothing'])}</p>") + account_html(user))


def problem(section_key: str, db: sqlite3.Connection, owner_id: int | None, back: str,
            errors: list[str], status_code: int) -> HTMLResponse:
    section = SECTIONS[section_key]
    return page(section.title, render_section(db, section_key, owner_id, back, errors), status_code)


def account_html(user: dict[str, Any] | None) -> str:
    return ""


@router.get("/style.css", include_in_schema=False)
def stylesheet() -> Response:
    return PlainTextResponse(STYLESHEET, media_type="text/css")


@router.get("/", response_class=HTMLResponse)
def index(request: Request, db: Db) -> Response:
    return show_sections(request, db, None, APP_TITLE, tuple(SECTIONS), "/")


def _add_page(route: str, title: str, keys: tuple[str, ...]) -> None:
    def show(request: Request, db: Db) -> Response:
        return show_sections(request, db, None, title, keys, route)

    router.add_api_route(route, show, methods=["GET"], response_class=HTMLResponse,
                         name=f"page {route}")


for _route, _title, _keys in PAGES:
    _add_page(_route, _title, _keys)


@router.post("/forms/{slug}", responses=FORM_RESPONSES)
async def create_from_form(slug: str, request: Request, db: Db) -> Response:
    owner_id = None
    key = BY_SLUG.get(slug)
    if key is None:
        return page(words(LANG)["not_found"], "<p>Unknown form.</p>", 404)
    section, form = SECTIONS[key], await read_form(request)
    back = safe_next(form)
    try:
        payload = section.model.model_validate(form_values(section, form))
        call(section.api.create_item, payload, db, user=None)
    except ValidationError as exc:
        return problem(key, db, owner_id, back, error_lines(exc), 422)
    except HTTPException as exc:
        return problem(key, db, owner_id, back, [str(exc.detail)], exc.status_code)
    return RedirectResponse(back, status_code=303)


@router.get("/forms/{slug}/{item_id}/edit", response_class=HTMLResponse, responses=FORM_RESPONSES)
def edit_page(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    owner_id = None
    key = BY_SLUG.get(slug)
    row = TABLES[key].get(db, item_id, owner_id) if key else None
    if row is None:
        return page(words(LANG)["not_found"], "<p>No such record.</p>", 404)
    back = safe_next(dict(request.query_params))
    form = render_form(db, SECTIONS, key, owner_id, back, [], LANG, row)
    return page(f"{words(LANG)['edit']}: {SECTIONS[key].title} #{item_id}", form)


@router.post("/forms/{slug}/{item_id}/edit", responses=FORM_RESPONSES)
async def edit_from_form(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    owner_id = None
    key = BY_SLUG.get(slug)
    row = TABLES[key].get(db, item_id, owner_id) if key else None
    if row is None:
        return page(words(LANG)["not_found"], "<p>No such record.</p>", 404)
    section, form = SECTIONS[key], await read_form(request)
    back = safe_next(form)
    try:
        payload = section.update_model.model_validate(form_values(section, form, editing=True))
        call(section.api.update_item, item_id, payload, db, user=None)
    except (ValidationError, HTTPException) as exc:
        errors = error_lines(exc) if isinstance(exc, ValidationError) else [str(exc.detail)]
        status_code = 422 if isinstance(exc, ValidationError) else exc.status_code
        form_html = render_form(db, SECTIONS, key, owner_id, back, errors, LANG, row)
        return page(f"{words(LANG)['edit']}: {section.title} #{item_id}", form_html, status_code)
    return RedirectResponse(back, status_code=303)


@router.post("/forms/{slug}/{item_id}/delete", responses=FORM_RESPONSES)
async def delete_from_form(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    owner_id = None
    key = BY_SLUG.get(slug)
    if key is None:
        return page(words(LANG)["not_found"], "<p>Unknown form.</p>", 404)
    back = safe_next(await read_form(request))
    try:
        call(SECTIONS[key].api.delete_item, item_id, db, user=None)
    except HTTPException as exc:
        return problem(key, db, owner_id, back, [str(exc.detail)], exc.status_code)
    return RedirectResponse(back, status_code=303)


@router.post("/forms/{slug}/{item_id}/complete", responses=FORM_RESPONSES)
async def complete_from_form(slug: str, item_id: RowId, request: Request, db: Db) -> Response:
    owner_id = None
    key = BY_SLUG.get(slug)
    if key is None or not SECTIONS[key].complete or TABLES[key].get(db, item_id, owner_id) is None:
        return page(words(LANG)["not_found"], "<p>No such record.</p>", 404)
    TABLES[key].set_status(db, item_id, "done", owner_id)
    return RedirectResponse(safe_next(await read_form(request)), status_code=303)
