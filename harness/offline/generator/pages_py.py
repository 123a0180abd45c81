"""Builds src/pages.py: server-rendered HTML pages with real data and forms (no JavaScript).

The rendering pieces are the skeleton's src/page_parts.py and src/ui.py; this module writes the
per-app part: the sections (one per entity, a control per field with the kind's input), the page
routes and the form handlers, which call the API handlers so every rule holds for forms too.
"""

from __future__ import annotations

from harness.offline.generator.api_access import owner_expr
from harness.offline.generator.api_features import filters
from harness.offline.generator.public_read import page_user_lines, public_pages_doc, visitor_page_chunk
from harness.offline.generator.record_tool_files import tool_nav
from harness.offline.generator.appmodel import AppModel, Column, Entity
from harness.offline.generator.codegen import doc, fill, lit, module
from harness.offline.generator.computed_values import page_columns
from harness.offline.generator.templates_dir import template

_HEADER = template("pages_py/header.tmpl")

_BODY = template("pages_py/body.tmpl")

_ROUTES = template("pages_py/routes.tmpl")

_NO_AUTH = template("pages_py/no_auth.tmpl")

_AUTH = template("pages_py/auth.tmpl")

_AUTH_IMPORT = ("from src.auth import (COOKIE_NAME, SESSION_DAYS, NewAccount, authenticate, client_address,\n"
                "                      create_user, end_session, login_throttle, page_user, request_token,\n"
                "                      start_session)")


def pages_py(app: AppModel) -> str:
    """The text of src/pages.py."""
    auth = app.auth
    modules = [f"api_{e.ident}" for e in app.entities]
    imports = (f"from src import {', '.join(modules)}\n" if modules else "") + (_AUTH_IMPORT if auth else "") + (
        "\nfrom src.people import as_viewer" if app.access else "")
    pages = "".join(f"    ({lit(p.route)}, {lit(p.name)}, {lit(_shown(app, p.entity))}),\n" for p in app.pages)
    vi = app.language == "vi"
    nav = [("/", "Trang chủ" if vi else "Home")] + [(p.route, p.name) for p in app.pages]
    nav += [("/dashboard", "Bảng điều khiển" if vi else "Dashboard")] if app.has_dashboard else []
    nav += tool_nav(app)
    auth_doc = ("GET/POST /login, GET/POST /register, POST /logout: accounts; pages need the `session`\n"
                "cookie that /login sets (others are sent to /login; / shows a login form)."
                + public_pages_doc(app) if auth else "")
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
                  show_user=page_user_lines(app) if auth else "",
                  user="user" if auth else "None", owner=owner_expr(app))
    body = _BODY.replace('owner_id = user["id"] if user else None',
                         'owner_id = as_viewer(db, user) if user else None') if app.access else _BODY
    return module(header, body, visitor_page_chunk(app), fill(_AUTH) if auth else _NO_AUTH, routes)


def _shown(app: AppModel, entity: str | None) -> tuple[str, ...]:
    return (entity,) if entity else tuple(e.ident for e in app.entities)


def _control(c: Column) -> str:
    attrs = c.entry.input_attrs(c.bounds)
    args = [lit(c.ident), lit(c.label), lit(c.kind), lit(c.required), f"attrs={lit(attrs)}"]
    if c.values:
        args.append(f"options={lit(c.values)}")
    if c.ref:
        args.append(f"ref={lit(c.ref)}")
    return f"            Control({', '.join(args)}),"


def _assignee(app: AppModel, e: Entity) -> list[str]:
    """The `assigned_to` control: a choice of the accounts."""
    label = "Giao cho" if app.language == "vi" else "Assigned to"
    return [f'            Control("assigned_to", {lit(label)}, "reference", False, attrs="", ref="@users"),'] \
        if e.assigned else []


def _section(app: AppModel, e: Entity) -> str:
    lines = [f"    {lit(e.ident)}: Section(", f"        title={lit(e.plural[:1].upper() + e.plural[1:])},",
             f"        slug={lit(e.slug)},", f"        model=api_{e.ident}.{e.camel}Create,",
             f"        update_model=api_{e.ident}.{e.camel}Update,",
             "        controls=(", *[_control(c) for c in e.columns], *_assignee(app, e), "        ),",
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
    if e.attachment_types:
        lines.append("        files=True,")
    if e.computed:
        lines.append(f"        computed={page_columns(e)},")
    page_filters = _page_filters(app, e)
    if page_filters:
        lines += ["        filters=(", *page_filters, "        ),"]
    return "\n".join(lines + ["    ),"])


_STATUS_LABEL = {"vi": "Trạng thái"}


def _page_filters(app: AppModel, e: Entity) -> list[str]:
    """A PageFilter per equality filter of the list route (enum, yes/no, status, parent, reference):
    the page offers the filters the API has; ranges stay API-only (`?<column>_min=` / `_max=`). The
    status states are the choices only of an entity with a status; a `status` enum field of the
    user's own (no workflow) offers its own values like any enum."""
    columns = {c.ident: c for c in e.columns}
    out = []
    for f in filters(e):
        if f.kind != "equal":
            continue
        if f.column == "status" and e.has_status:   # the workflow's status; a user's own status enum is a column
            args = [lit("status"), lit(_STATUS_LABEL.get(app.language, "Status")), lit("enum"),
                    f"options={lit(tuple(e.states))}"]
        elif f.column == e.fk:
            parent = app.entity(e.parent)
            args = [lit(e.fk), lit(parent.name[:1].upper() + parent.name[1:]), lit("reference"),
                    f"ref={lit(e.parent)}"]
        else:
            c = columns[f.column]
            args = [lit(c.ident), lit(c.label), lit(c.kind)]
            if c.kind == "enum":
                args.append(f"options={lit(tuple(c.values))}")
            elif c.kind == "reference":
                args.append(f"ref={lit(c.ref)}")
        out.append(f"            PageFilter({', '.join(args)}),")
    return out


def page_routes(app: AppModel) -> list[str]:
    """Every GET page route of the app, "/" first."""
    return ["/"] + [p.route for p in app.pages]


def route_showing(app: AppModel, ident: str) -> str:
    """A page that lists the entity: its own page when the spec has one, else the index."""
    return next((p.route for p in app.pages if p.entity == ident), "/")
