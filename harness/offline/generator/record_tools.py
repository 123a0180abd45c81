"""What the record-tool modules of a generated app share (src/calendar_view.py, src/csv_import.py,
src/attachments.py): who the signed-in user is, how rows are scoped to them, and the header of
their test files. Pure: app in, source text out."""

from __future__ import annotations

import re

from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import fill, marks
from harness.offline.generator.testkit import api_makers
from harness.offline.generator.templates_dir import template

_TEST_HEADER = template("record_tools/test_header.tmpl")
# the lines of a record-tool template that serve its HTML pages: kept only when the app has pages
_PAGE_LINES = re.compile(r"^[ \t]*# pages:begin\n(.*?)^[ \t]*# pages:end\n", re.S | re.M)


def with_pages(text: str, app: AppModel) -> str:
    """`text` (a template) with its `# pages:begin` … `# pages:end` lines when the app has HTML
    pages, without them in a JSON-API-only app (`html = false`: the tool's JSON routes only)."""
    return _PAGE_LINES.sub(lambda m: m.group(1) if app.html else "", text)


def scope_imports(app: AppModel) -> str:
    """The imports of the user dependency and (with an access policy) the viewer."""
    lines = ["from src.auth import CurrentUser, page_user"] if app.auth else []
    return "\n".join(lines + (["from src.people import as_viewer"] if app.access else []))


def user_param(app: AppModel) -> str:
    """The route parameter that names the signed-in user ("" without accounts)."""
    return ", user: CurrentUser" if app.auth else ""


def owner_of(app: AppModel, user: str = "user") -> str:
    """The expression rows are scoped by (as in the entity's own API module)."""
    if not app.auth:
        return "None"
    return f"as_viewer(db, {user})" if app.access else f'{user}["id"]'


def page_login_check(app: AppModel) -> str:
    """The first lines of a page handler: who is signed in (to /login when nobody)."""
    if not app.auth:
        return ""   # no accounts: the handlers pass None as the user
    return ('user = page_user(request, db)\nif user is None:\n'
            '    return RedirectResponse("/login", status_code=303)')


def tool_entities(app: AppModel, tool: str) -> list[Entity]:
    """The entities that have `tool` ("calendar", "csv_import", "attachments")."""
    has = {"calendar": lambda e: bool(e.calendar), "csv_import": lambda e: e.csv_import > 0,
           "attachments": lambda e: bool(e.attachment_types)}[tool]
    return [e for e in app.entities if has(e)]


def test_header(app: AppModel, what: str, tool_module: str, imports: str = "") -> str:
    """The header of a record tool's test file: its client is the tool's router (first: its routes
    come before the entity routes' /{item_id}), the auth router and every entity's."""
    apis = [f"api_{e.ident}" for e in app.entities]
    mods = (["auth"] if app.auth else []) + [tool_module] + apis
    routers = (["auth.router"] if app.auth else []) + [f"{tool_module}.router"] + [f"{m}.router" for m in apis]
    return "\n\n\n".join([fill(_TEST_HEADER, what=what, imports=imports,
                               modules="src import " + ", ".join(sorted(mods)), routers=", ".join(routers),
                               headers='login(client, "alice")' if app.auth else "{}",
                               login_arg=", login" if app.auth else ""),
                          *api_makers(app)])


def test_fixtures(app: AppModel) -> str:
    return "client, headers, login" if app.auth else "client, headers"


def marked(req_ids: tuple[str, ...], head: str, body: str) -> str:
    return f"{marks(req_ids)}{head}\n{body}"
