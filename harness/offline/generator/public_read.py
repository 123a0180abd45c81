"""Public read (`read = "public"`, docs/spec-language.md): a visitor without an account reads the
entity's records — its list (with search, filters, sort), a record by id, a parent's list, the CSV
export, totals, counts and summaries, and its own page — while adding needs an account and
changing or deleting stays the adder's (and the admin's and the managing role's).

The read routes take a `PublicReader` instead of `CurrentUser`: the signed-in user, or for a
request without a token no account at all (id 0, which no account has, and no role), whom the
shared table's scope shows every record and lets change none. Only an app with a public entity
gets any of this, so every other app's files stay as they were."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Entity

# The visitor: no account has id 0 (ids start at 1), and it has no role.
VISITOR = '{"id": 0, "username": "", "role": None}'

_READER = f'''def _reader(credentials: Bearer, db: Db) -> dict[str, Any]:
    """The signed-in user, or a visitor without a token as no account (anyone reads these records;
    a wrong or expired token is a visitor too, as no token is)."""
    user = user_for_token(db, credentials.credentials if credentials else None)
    return user if user is not None else {VISITOR}


PublicReader = Annotated[dict[str, Any], Depends(_reader)]'''

_VISITOR_PAGE = f'''PUBLIC = {{@@public@@}}   # the entities anyone reads, without an account


def visitor_page(request: Request, db: sqlite3.Connection, title: str, keys: tuple[str, ...],
                 back: str) -> Response | None:
    """A page of public records for a visitor without an account (None when the page shows any
    other entity): the records and a link to log in, which adding or changing one needs."""
    if not keys or not set(keys) <= PUBLIC:
        return None
    viewer = as_viewer(db, {VISITOR})
    query, params = request.query_params.get("q", "")[:200], request.query_params
    body = "".join(render_section(db, key, viewer, back, query=query, params=params) for key in keys)
    return page(title, body + f'<p><a href="/login">{{escape(words(LANG)["login"])}}</a></p>')'''


def reader_param(app: AppModel, e: Entity) -> str:
    """The user parameter of a read route: anyone for a public entity, else a signed-in user."""
    if not app.auth:
        return ""
    return ", user: PublicReader" if e.public else ", user: CurrentUser"


def reader_chunk(e: Entity) -> str:
    """The `PublicReader` dependency of a public entity's module (empty otherwise)."""
    return _READER if e.public else ""


def reader_import(e: Entity) -> str:
    return "from src.auth import Bearer, user_for_token" if e.public else ""


def visitor_page_chunk(app: AppModel) -> str:
    """pages.py's `visitor_page` (empty in an app without a public entity)."""
    public = [e.ident for e in app.entities if e.public]
    return _VISITOR_PAGE.replace("@@public@@", ", ".join(repr(i) for i in public)) if public else ""


def public_pages_doc(app: AppModel) -> str:
    """pages.py's docstring line on the pages a visitor reads (empty without a public entity)."""
    public = [e.plural for e in app.entities if e.public]
    return ("\nA page showing only " + ", ".join(public) + " (anyone reads them) shows a visitor the "
            "records and a link to log in.") if public else ""


def page_user_lines(app: AppModel) -> str:
    """The start of a page route (`show` of PAGES): sign-in, or a visitor's page of public records."""
    lines = "user = page_user(request, db)\nif user is None:\n"
    if any(e.public for e in app.entities):
        lines += "    return visitor_page(request, db, title, keys, route) or to_login()"
    else:
        lines += "    return to_login()"
    return lines


def visitor_routes(app: AppModel) -> list[str]:
    """The page routes a visitor reads: those showing only public entities."""
    public = {e.ident for e in app.entities if e.public}
    return [p.route for p in app.pages if p.entity in public]


def visitor_page_checks(app: AppModel) -> dict[str, str]:
    """tests/test_pages.py's sign-in test: the routes that send a visitor to /login, and (with a
    public entity's page) that its page answers a visitor with the records and a login link."""
    shown = visitor_routes(app)
    if not shown:
        return {"private_routes": "PAGE_ROUTES[1:]", "visitor_checks": ""}
    private = [p.route for p in app.pages if p.route not in shown]
    return {"private_routes": repr(private),
            "visitor_checks": f"for route in {shown!r}:   # anyone reads these records\n"
                              "    response = client.get(route, follow_redirects=False)\n"
                              '    assert response.status_code == 200 and \'href="/login"\' in response.text'}
