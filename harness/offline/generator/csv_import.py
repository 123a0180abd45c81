"""CSV import of records (`csv_import = true` on an entity): src/csv_import.py (POST
/api/<slug>/import, all rows or none, and the /<slug>/import page) and its tests. Pure: app in,
source text out."""

from __future__ import annotations

from harness.offline.generator.api_py import collection_url
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import doc, fill, lit, module
from harness.offline.generator.record_tools import (
    marked, owner_of, page_login_check, scope_imports, test_fixtures, test_header, tool_entities, user_param,
    with_pages,
)
from harness.offline.generator.samples import distinct, sample
from harness.offline.generator.templates_dir import template

SOURCE, TESTS = "src/csv_import.py", "tests/test_csv_import.py"
_MODULE = template("record_tools/csv_import.tmpl")
_ROUTE = template("record_tools/csv_import_route.tmpl")
_TEST = template("record_tools/csv_import_test.tmpl")
_WRONG = {"integer": "many", "rating": "many", "money": "lots", "decimal": "lots", "date": "2031-13-45",
          "datetime": "not a moment", "time": "25:99", "boolean": "perhaps", "email": "not-an-address",
          "enum": "zz-not-a-listed-value", "url": "not a url"}


def import_entities(app: AppModel) -> list[Entity]:
    return tool_entities(app, "csv_import")


def api_url(e: Entity) -> str:
    return collection_url(e) + "/import"


def page_url(e: Entity) -> str:
    return f"/{e.slug}/import"


def import_paths(app: AppModel) -> list[str]:
    return [api_url(e) for e in import_entities(app)]


def csv_import_py(app: AppModel) -> str:
    entities = import_entities(app)
    imports = ", ".join(f"{lit(e.ident)}: (api_{e.ident}.{e.camel}Create, api_{e.ident}.create_item, {e.csv_import}, "
                        f"{lit(e.slug)}, {lit(e.plural.capitalize())})" for e in entities)
    routes = [fill(with_pages(_ROUTE, app), api_url=lit(api_url(e)), page_url=lit(page_url(e)), ident=e.ident, key=lit(e.ident),
                   plural_doc=doc(e.plural), user_param=user_param(app), user="user" if app.auth else "None",
                   login_check=page_login_check(app), title=lit(f"{e.plural.capitalize()}: import"))
              for e in entities]
    docs = "\n".join(f"- POST {api_url(e)} (CSV text, at most {e.csv_import} rows); the import page GET, POST "
                     f"{page_url(e)}" for e in entities)
    text = fill(with_pages(_MODULE, app), routes_doc=docs, api_modules=", ".join(sorted(f"api_{e.ident}" for e in entities)),
                scope_imports=scope_imports(app), imports=imports,
                create_call="create(body, db, user)" if app.auth else "create(body, db)",
                owner=owner_of(app), routes="\n\n\n".join(r.strip("\n") for r in routes))
    if not app.auth:
        text = text.replace("from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response",
                            "from fastapi.responses import HTMLResponse, JSONResponse, Response")
    return module(text)


def _row(e: Entity) -> str:
    """The body of row(n): one valid record as CSV cells (references made on the fly)."""
    parts = []
    for c in e.plain:
        if not c.required and not c.unique:
            continue
        if c.unique and not c.is_text:
            parts.append(f"{lit(c.ident)}: {distinct(c, 'n')}")
        elif c.is_text and c.kind in ("short_text", "long_text"):
            parts.append(f"{lit(c.ident)}: {lit(str(sample(c)) + ' ')} + str(n)")
        elif c.unique:
            parts.append(f"{lit(c.ident)}: {distinct(c, 'n')}")
        else:
            parts.append(f"{lit(c.ident)}: {lit(sample(c))}")
    for key, target in ([(e.fk, e.parent)] if e.fk else []) + [(c.ident, c.ref) for c in e.refs if c.required]:
        parts.append(f"{lit(key)}: create_{target}(client, headers)")
    return "return {" + ", ".join(parts) + "}"


def _bad(e: Entity) -> tuple[str, str]:
    """(column, value) that makes a row invalid."""
    wrong = next((c for c in e.plain if c.kind in _WRONG), None)
    if wrong is not None:
        return wrong.ident, lit(_WRONG[wrong.kind])
    required = next((c for c in e.plain if c.required), None)
    alone = not e.fk and not any(c.required for c in e.refs) \
        and sum(1 for c in e.plain if c.required or c.unique) == 1
    if required is not None and alone and required.is_text:
        return required.ident, lit("x" * 100_001)   # its only cell empty, the row is blank: skipped
    if required is not None:
        return required.ident, lit("")
    if e.fk or e.refs:
        return (e.fk or e.refs[0].ident), "MISSING"
    text = next((c for c in e.plain if c.is_text), None)
    return (text.ident if text else "id"), lit("x" * 100_001)


def _late_bad(e: Entity) -> str:
    """A file whose first row is added before its second fails on the stored data (a record that
    does not exist, a duplicate): the first must be taken back (all or nothing)."""
    key = e.fk or next((c.ident for c in e.refs), None)
    unique = next((c for c in e.plain if c.unique), None)
    if key:
        late = f"[row(8), {{**row(9), {lit(key)}: MISSING}}]"
    elif unique is not None:
        late = "[row(8), row(8)]"
    else:
        return ""
    return "\n".join([
        f"late = client.post({lit(api_url(e))}, content=as_csv({late}), headers={{**headers, \"Content-Type\": \"text/csv\"}})",
        'assert late.status_code == 422 and [error["row"] for error in late.json()["errors"]] == [3], late.text',
        f'assert {{item["id"] for item in client.get({lit(collection_url(e))}, headers=headers).json()}} == set(listed)'])


def _read_back(e: Entity) -> str:
    shown = next((c for c in e.plain if c.required and c.kind in ("short_text", "long_text")), None)
    if shown is None:
        return ""
    return f"assert sorted(listed[i][{lit(shown.ident)}] for i in ids) == sorted(row(n)[{lit(shown.ident)}] for n in (1, 2, 3))"


def import_test(app: AppModel, e: Entity, req_ids: tuple[str, ...], name: str | None = None) -> str:
    bob = ['bob = login(client, "bobby")'] if app.auth else []
    if app.auth and not e.shared:
        bob.append(f'assert not set(ids) & {{item["id"] for item in client.get({lit(collection_url(e))}, headers=bob).json()}}')
    if app.auth and e.manage:   # a member may not add these records: the import is refused whole
        bob.append(f'assert client.post({lit(api_url(e))}, content=text, headers={{**bob, "Content-Type": "text/csv"}})'
                   ".status_code == 403")
    bob = "\n".join(bob) if len(bob) > 1 else ""
    column, value = _bad(e)
    text = fill(with_pages(_TEST, app), ident=e.ident, fixtures=test_fixtures(app), row=_row(e), list_url=lit(collection_url(e)),
                api_url=lit(api_url(e)), page_url=lit(page_url(e)), read_back=_read_back(e),
                bad_key=lit(column), bad_value=value, late_bad=_late_bad(e), max_rows=e.csv_import, bob_check=bob)
    text = text.replace("[row(n) for n in range(", "[row(1)] * (", 1).replace(" + 1)])", " + 1))", 1)
    if name:
        text = text.replace(f"def test_{e.ident}_csv_import_takes_every_row_or_none(", f"def {name}(", 1)
    head, _, body = text.partition("\n")
    return marked(req_ids, head, body)


def test_csv_import_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    tests = [import_test(app, e, e.req_ids("import") or req_ids) for e in import_entities(app)]
    return module(test_header(app, "CSV import", "csv_import"), *tests)


def import_acceptance(app: AppModel, req_id: str, entity: str, name: str) -> str | None:
    e = app.entity(entity)
    return import_test(app, e, (req_id,), name) if e.csv_import else None
