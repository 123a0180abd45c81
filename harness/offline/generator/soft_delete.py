"""Soft delete (`delete = "soft"` on an entity): src/trash.py (GET /api/<slug>/deleted, POST
/api/<slug>/{id}/restore, the /<slug>/deleted page and its restore form) and its tests; the
table's SQL is soft_delete_sql.py's. Pure: app in, source text out."""

from __future__ import annotations

from harness.offline.generator.api_py import collection_url
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import doc, fill, lit, module
from harness.offline.generator.record_tools import (
    marked, owner_of, page_login_check, scope_imports, test_fixtures, test_header, user_param, with_pages,
)
from harness.offline.generator.soft_delete_sql import soft_entities
from harness.offline.generator.templates_dir import template

SOURCE, TESTS = "src/trash.py", "tests/test_trash.py"
_MODULE = template("record_tools/trash.tmpl")
_ROUTE = template("record_tools/trash_route.tmpl")
_TEST = template("record_tools/trash_test.tmpl")


def api_url(e: Entity) -> str:
    return collection_url(e) + "/deleted"


def restore_url(e: Entity) -> str:
    return collection_url(e) + "/{item_id}/restore"


def page_url(e: Entity) -> str:
    return f"/{e.slug}/deleted"


def trash_paths(app: AppModel) -> list[str]:
    return [api_url(e) for e in soft_entities(app)]


def _role_check(app: AppModel, e: Entity, user: str) -> str:
    """Only the managing role (and the admin role) restores records only it may delete."""
    return f"require_role(as_viewer(db, {user}), {lit(e.manage)})" if app.access and e.manage else ""


def trash_py(app: AppModel) -> str:
    entities = soft_entities(app)
    trashes = {e.ident: (e.slug, e.display.ident if e.display else "id", e.plural.capitalize(), e.name) for e in entities}
    routes = [fill(with_pages(_ROUTE, app), api_url=lit(api_url(e)), restore_url=lit(restore_url(e)),
                   page_url=lit(page_url(e)), page_restore_url=lit(f"/{e.slug}/{{item_id}}/restore"),
                   ident=e.ident, key=lit(e.ident), plural_doc=doc(e.plural), name_doc=doc(e.name),
                   user_param=user_param(app), owner=owner_of(app),
                   page_owner=owner_of(app) if app.auth else "None", login_check=page_login_check(app),
                   role_check=_role_check(app, e, "user"), page_role_check=_page_role_check(app, e),
                   title=lit(f"Deleted {e.plural}")) for e in entities]
    docs = "\n".join(f"- GET {api_url(e)}, POST {restore_url(e)}; the page GET {page_url(e)} and its "
                     f"restore form POST /{e.slug}/{{item_id}}/restore" for e in entities)
    imports = scope_imports(app) + ("\nfrom src.people import require_role" if any(_role_check(app, e, "user")
                                                                                 for e in entities) else "")
    text = fill(with_pages(_MODULE, app), routes_doc=docs, api_modules=", ".join(sorted(f"api_{e.ident}" for e in entities)),
                scope_imports=imports, trashes=lit(trashes),
                out_models=", ".join(f"{lit(e.ident)}: api_{e.ident}.{e.camel}Out" for e in entities),
                routes="\n\n\n".join(r.strip("\n") for r in routes))
    if not app.auth or not app.html:
        text = text.replace(", RedirectResponse, Response", ", Response") if not app.html else text
    return module(text)


def _page_role_check(app: AppModel, e: Entity) -> str:
    check = _role_check(app, e, "user")
    if not check:
        return ""
    return f"try:\n    {check}\nexcept HTTPException as exc:\n    return page({lit(f'Deleted {e.plural}')}, " \
           "f\"<p>{escape(str(exc.detail))}</p>\", status_code=exc.status_code)"


def _bob_check(app: AppModel, e: Entity) -> str:
    """Another account sees none of the user's deleted records and restores none of them (a
    managing role's records: a member may do neither)."""
    if not app.auth:
        return ""
    restore = f'assert client.post(f"{collection_url(e)}/{{item_id}}/restore", headers=bob).status_code'
    if e.manage:
        return "\n".join(['bob = login(client, "bobby")', f"{restore} in (403, 404)"])
    return "\n".join(['bob = login(client, "bobby")', f"assert client.get({lit(api_url(e))}, headers=bob).json() == []",
                      f"{restore} == 404"])


def trash_test(app: AppModel, e: Entity, req_ids: tuple[str, ...], name: str | None = None) -> str:
    text = fill(with_pages(_TEST, app), ident=e.ident, fixtures=test_fixtures(app), list_url=collection_url(e),
                api_url=lit(api_url(e)), page_url=lit(page_url(e)), slug=e.slug, bob_check=_bob_check(app, e))
    if name:
        text = text.replace(f"def test_{e.ident}_delete_keeps_the_record_to_restore(", f"def {name}(", 1)
    head, _, body = text.partition("\n")
    return marked(req_ids, head, body)


def test_trash_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    tests = [trash_test(app, e, e.req_ids("soft_delete") or req_ids) for e in soft_entities(app)]
    return module(test_header(app, "soft delete: the deleted records and their restore", "trash"), *tests)


def trash_acceptance(app: AppModel, req_id: str, entity: str, name: str) -> str | None:
    e = app.entity(entity)
    return trash_test(app, e, (req_id,), name) if e.soft_delete else None
