"""Files attached to records (`attachments = true | { types, max_kb }` on an entity):
src/attachments.py (upload, list, download, delete; the /<slug>/{id}/attachments page), the
attachment tables and the tests. Pure: app in, source text out."""

from __future__ import annotations

from harness.offline.generator.api_py import collection_url
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import doc, fill, lit, module
from harness.offline.generator.naming import sql_quote as q
from harness.offline.generator.record_tools import (
    marked, page_login_check, scope_imports, test_fixtures, test_header, tool_entities, user_param,
    with_pages,
)
from harness.offline.generator.templates_dir import template

SOURCE, TESTS = "src/attachments.py", "tests/test_attachments.py"
_MODULE = template("record_tools/attachments.tmpl")
_ROUTE = template("record_tools/attachments_route.tmpl")
_TEST = template("record_tools/attachments_test.tmpl")
# a small valid file of each type (its first bytes are the type's signature) and its name suffix
_SAMPLES = {"application/pdf": (b"%PDF-1.4\n% sample\n", ".pdf"), "image/png": (b"\x89PNG\r\n\x1a\nsample", ".png"),
            "image/jpeg": (b"\xff\xd8\xff\xe0sample", ".jpg"), "image/gif": (b"GIF89asample", ".gif"),
            "image/webp": (b"RIFF\x00\x00\x00\x00WEBPsample", ".webp"), "application/zip": (b"PK\x03\x04sample", ".zip")}
_SIGNED = set(_SAMPLES)


def attachment_entities(app: AppModel) -> list[Entity]:
    return tool_entities(app, "attachments")


def files_url(e: Entity) -> str:
    return collection_url(e) + "/{item_id}/attachments"


def attachment_paths(app: AppModel) -> list[str]:
    return [p for e in attachment_entities(app) for p in (files_url(e), files_url(e) + "/{file_id}")]


def attachment_schema(app: AppModel) -> list[str]:
    """One table per entity with attachments: its rows go with their record."""
    out = []
    for e in attachment_entities(app):
        t = q(f"attachment_{e.ident}")
        out.append(f"CREATE TABLE IF NOT EXISTS {t} ({q('id')} INTEGER PRIMARY KEY, "
                   f"{q('record_id')} INTEGER NOT NULL REFERENCES {q(e.ident)} ({q('id')}) ON DELETE CASCADE, "
                   f"{q('filename')} TEXT NOT NULL, {q('content_type')} TEXT NOT NULL, {q('size')} INTEGER NOT NULL, "
                   f"{q('stored_name')} TEXT NOT NULL UNIQUE, {q('created_at')} TEXT NOT NULL)")
        out.append(f"CREATE INDEX IF NOT EXISTS {q(f'ix_attachment_{e.ident}')} ON {t} ({q('record_id')})")
    return out


def _may_attach(app: AppModel) -> str:
    if app.access:
        return ("viewer = as_viewer(db, user)\nif TABLES[key].get(db, item_id, viewer) is None:\n"
                '    raise HTTPException(404, "record not found")\n'
                'if not TABLES[key].allowed(db, item_id, viewer, "update"):\n'
                '    raise HTTPException(403, "only those who may change the record handle its files")')
    owner = 'user["id"]' if app.auth else "None"
    return f'if TABLES[key].get(db, item_id, {owner}) is None:\n    raise HTTPException(404, "record not found")'


def _scope_doc(app: AppModel) -> str:
    if not app.auth:
        return "The app has no accounts: anyone may handle the files."
    if app.access:
        return ("Only who may change the record (its owner, its assignee, the managing and admin roles) uploads, "
                "lists, downloads and deletes its files (403; 404 when the record is not visible).")
    return "Only the record's owner handles its files (another user gets 404)."


def attachments_py(app: AppModel) -> str:
    entities = attachment_entities(app)
    table = {e.ident: (e.attachment_max_kb * 1024, tuple(e.attachment_types), e.slug, e.plural.capitalize())
             for e in entities}
    routes = [fill(with_pages(_ROUTE, app), files_url=lit(files_url(e)), file_url=lit(files_url(e) + "/{file_id}"),
                   page_url=lit(f"/{e.slug}/{{item_id}}/attachments"), ident=e.ident, key=lit(e.ident),
                   name_doc=doc(e.name), user_param=user_param(app), user="user" if app.auth else "None",
                   login_check=page_login_check(app), title=lit(f"{e.name.capitalize()}: files"), slug=e.slug,
                   login_check_json=page_login_check(app).replace(
                       'return RedirectResponse("/login", status_code=303)',
                       'raise HTTPException(401, "not signed in")'))
              for e in entities]
    docs = "\n".join(f"- POST, GET {files_url(e)} (at most {e.attachment_max_kb} KB: "
                     f"{', '.join(e.attachment_types)}); GET, DELETE {files_url(e)}/{{file_id}}; "
                     f"the files page GET /{e.slug}/{{item_id}}/attachments" for e in entities)
    text = fill(with_pages(_MODULE, app), routes_doc=docs, scope_doc=_scope_doc(app), scope_imports=scope_imports(app),
                attachments=lit(table), may_attach=_may_attach(app), routes="\n\n\n".join(r.strip("\n") for r in routes))
    if not app.auth:
        text = text.replace("FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response",
                            "FileResponse, HTMLResponse, JSONResponse, Response")
    return module(text)


def attachment_test(app: AppModel, e: Entity, req_ids: tuple[str, ...], name: str | None = None) -> str:
    kind = e.attachment_types[0]
    content, suffix = _SAMPLES.get(kind, (b"sample text\n", ".txt" if kind.startswith("text/") else ".bin"))
    head = lit(kind)
    forged = (f'assert client.post(files, content=b"not really the type", headers={{**headers, "Content-Type": {head}}})'
              ".status_code == 415") if kind in _SIGNED else ""
    bob = ""
    if app.auth:
        refused = 403 if e.shared else 404
        bob = ('bob = login(client, "bobby")\n'
               f'assert client.get(f"{{files}}/{{made[\'id\']}}", headers=bob).status_code == {refused}\n'
               f"assert client.get(files, headers=bob).status_code == {refused}\n"
               f'assert client.post(files, content=content, headers={{**bob, "Content-Type": {head}}}).status_code == {refused}\n'
               f'assert client.delete(f"{{files}}/{{made[\'id\']}}", headers=bob).status_code == {refused}')
    text = fill(with_pages(_TEST, app), ident=e.ident, key=lit(e.ident), fixtures=test_fixtures(app), collection=collection_url(e),
                content=lit(content), suffix=suffix, max_kb=e.attachment_max_kb, kind=head, max_bytes=e.attachment_max_kb * 1024, forged=forged,
                slug=e.slug, bob_check=bob)
    if name:
        text = text.replace(f"def test_{e.ident}_files_upload_list_download_and_refusals(", f"def {name}(", 1)
    first, _, body = text.partition("\n")
    return marked(req_ids, first, body)


def test_attachments_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    tests = [attachment_test(app, e, e.req_ids("attachment") or req_ids) for e in attachment_entities(app)]
    return module(test_header(app, "attachments", "attachments"), *tests)


def attachment_acceptance(app: AppModel, req_id: str, entity: str, name: str) -> str | None:
    e = app.entity(entity)
    return attachment_test(app, e, (req_id,), name) if e.attachment_types else None
