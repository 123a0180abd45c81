"""Builds tests/test_pages.py: every page renders real data and a form; forms create records."""

from __future__ import annotations

from harness.offline.generator.api_features import filters
from harness.offline.generator.api_py import collection_url
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.samples import body
from harness.offline.generator.codegen import fill, lit, marks, module
from harness.offline.generator.pages_py import page_routes, route_showing
from harness.offline.generator.setup_files import TEST_PASSWORD
from harness.offline.generator.testkit import api_makers, router_imports, routers
from harness.offline.generator.public_read import visitor_page_checks
from harness.offline.generator.templates_dir import template

_HEADER = template("pages_tests/header.tmpl")

_COMMON = template("pages_tests/common.tmpl")

_ESCAPE = template("pages_tests/escape.tmpl")

_REQUIRED = template("pages_tests/required.tmpl")

_COMPLETE = template("pages_tests/complete.tmpl")

_EDIT_DELETE = template("pages_tests/edit_delete.tmpl")

_AUTH = template("pages_tests/auth.tmpl")

_FILTER = template("pages_tests/filter.tmpl")


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

    # made-up words go only into a column that takes any words (a time column's display is a 422)
    escapable = next((e for e in app.entities if e.text_column), None)
    if escapable:
        chunks.append(fill(_ESCAPE, marks=m, ident=escapable.ident, col=lit(escapable.text_column.ident),
                           page=lit(route_showing(app, escapable.ident))))
    # a form missing a required non-checkbox field is invalid (an unticked box is just False)
    required = next((e for e in app.entities
                     if any(c.required and c.type != "bool" for c in e.columns)), None)
    if required:
        chunks.append(fill(
            _REQUIRED, marks=m, action=lit(f"/forms/{required.slug}"), page=lit(route_showing(app, required.ident)),
            field=lit(next(c.ident for c in required.columns if c.required and c.type != "bool")),
            parent_setup=f"parent_id = create_{required.parent}(client, headers)" if required.fk else "",
            data=(f"{{{lit(required.fk)}: str(parent_id)}}" if required.fk else "{}")))
    if escapable:
        chunks.append(fill(_EDIT_DELETE, marks=m, ident=escapable.ident, slug=escapable.slug,
                           col=lit(escapable.text_column.ident), url=collection_url(escapable),
                           page=lit(route_showing(app, escapable.ident))))
    filtered = _page_filter_case(app)
    if filtered:
        chunks.append(fill(_FILTER, marks=m, **filtered))
    for e in app.entities:
        if e.has_status and not e.workflow:
            chunks.append(fill(_COMPLETE, marks=m, ident=e.ident, slug=e.slug, url=collection_url(e)))
            break
    if auth:   # a record only alice sees: of an entity that is not shared
        hidden = next((e for e in app.entities if e.text_column and not e.shared), None)
        secret = (f'create_{hidden.ident}(client, headers, **{{{lit(hidden.text_column.ident)}: '
                  '"alice-secret"})') if hidden else ""
        chunks.append(fill(_AUTH, marks=m, password=lit(TEST_PASSWORD), secret_setup=secret,
                           **visitor_page_checks(app),
                           home=lit("/dashboard" if app.has_dashboard else "/")))
    return module(*chunks)


def _page_filter_case(app: AppModel) -> dict[str, str] | None:
    """A list page filter to test: the first enum (two values) or yes/no filter of an entity with a
    column of free text, with a value that keeps one record and one that drops the other."""
    for e in app.entities:
        if e.text_column is None:
            continue
        for c in e.columns:
            if not any(f.column == c.ident and f.kind == "equal" for f in filters(e)):
                continue
            if c.kind == "enum" and len(c.values) >= 2:
                keep, drop, param = lit(c.values[0]), lit(c.values[1]), lit(c.values[0])
            elif c.kind == "boolean":
                keep, drop, param = "True", "False", lit("true")
            else:
                continue
            return {"ident": e.ident, "col": lit(e.text_column.ident), "field": lit(c.ident), "keep": keep,
                    "drop": drop, "param": param, "page": lit(route_showing(app, e.ident)),
                    "slug": lit(e.slug)}
    return None


def _multiline(mapping: dict) -> str:
    if not mapping:
        return "{}"
    return "{\n" + "".join(f"    {lit(k)}: {lit(v)},\n" for k, v in mapping.items()) + "}"
