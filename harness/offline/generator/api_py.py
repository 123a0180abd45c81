"""Builds src/api_<entity>.py: one FastAPI router per entity with pydantic v2 request models."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Column, Entity
from harness.offline.generator.codegen import doc, fill, lit, module

_FIELD_TYPES = {
    "str": "ShortText", "text": "LongText", "int": "Int64", "float": "Float", "bool": "bool",
    "date": "_dt.date", "datetime": "_dt.datetime",
}
_OUT_TYPES = {"str": "str", "text": "str", "int": "int", "float": "float", "bool": "bool",
              "date": "_dt.date", "datetime": "_dt.datetime"}

_HEADER = '''
"""REST API for @@plural_doc@@.

@@routes_doc@@

@@scope_doc@@
Invalid input is 422, an unknown id is 404.
"""

import datetime as _dt
import sqlite3
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Response
from pydantic import BaseModel, Field

@@auth_import@@
from src.models import TABLES, get_db

MAX_ID = 2**63 - 1  # SQLite INTEGER range; larger numbers are 422, not an overflow
TABLE = TABLES[@@ident@@]
@@parent_table@@
router = APIRouter(tags=[@@tag@@])

Db = Annotated[sqlite3.Connection, Depends(get_db)]
RowId = Annotated[int, Path(ge=-MAX_ID - 1, le=MAX_ID)]
Limit = Annotated[int, Query(ge=1, le=500)]
Offset = Annotated[int, Query(ge=0, le=MAX_ID)]
Int64 = Annotated[int, Field(ge=-MAX_ID - 1, le=MAX_ID)]
Float = Annotated[float, Field(allow_inf_nan=False)]
ShortText = Annotated[str, Field(max_length=200)]
LongText = Annotated[str, Field(max_length=5000)]
RequiredShortText = Annotated[str, Field(min_length=1, max_length=200)]
RequiredLongText = Annotated[str, Field(min_length=1, max_length=5000)]
Status = Literal["open", "done"]
'''

_HANDLERS = '''
def _found(row: dict[str, Any] | None) -> dict[str, Any]:
    if row is None:
        raise HTTPException(404, @@not_found@@)
    return row
@@check_parent@@


@router.post(@@url@@, status_code=201, response_model=@@camel@@Out)
def create_item(body: @@camel@@Create, db: Db@@user@@) -> dict[str, Any]:
    values = body.model_dump(mode="json", by_alias=True)
    @@check_create@@
    return TABLE.insert(db, values, @@owner@@)


@router.get(@@url@@, response_model=list[@@camel@@Out])
def list_items(db: Db@@user@@, limit: Limit = 100, offset: Offset = 0) -> list[dict[str, Any]]:
    return TABLE.rows(db, @@owner@@, limit, offset)


@router.get(@@item_url@@, response_model=@@camel@@Out)
def read_item(item_id: RowId, db: Db@@user@@) -> dict[str, Any]:
    return _found(TABLE.get(db, item_id, @@owner@@))


@router.put(@@item_url@@, response_model=@@camel@@Out)
def update_item(item_id: RowId, body: @@camel@@Update, db: Db@@user@@) -> dict[str, Any]:
    """Partial update: only the fields present in the body change."""
    values = body.model_dump(mode="json", by_alias=True, exclude_unset=True)
    @@check_update@@
    return _found(TABLE.update(db, item_id, values, @@owner@@))


@router.delete(@@item_url@@, status_code=204)
def delete_item(item_id: RowId, db: Db@@user@@) -> Response:
    if not TABLE.delete(db, item_id, @@owner@@):
        raise HTTPException(404, @@not_found@@)
    return Response(status_code=204)
'''

_COMPLETE = '''
@router.post(@@complete_url@@, response_model=@@camel@@Out)
def complete_item(item_id: RowId, db: Db@@user@@) -> dict[str, Any]:
    """Mark the record done."""
    _found(TABLE.get(db, item_id, @@owner@@))
    return _found(TABLE.set_status(db, item_id, "done", @@owner@@))
'''

_CHILDREN = '''
@router.get(@@children_url@@, response_model=list[@@camel@@Out])
def list_for_parent(parent_id: RowId, db: Db@@user@@, limit: Limit = 100,
                    offset: Offset = 0) -> list[dict[str, Any]]:
    """The records of one @@parent_doc@@ (404 when that parent is unknown)."""
    _check_parent(db, parent_id, @@owner@@)
    return TABLE.children(db, parent_id, @@owner@@, limit, offset)
'''

_CHECK_PARENT = '''
def _check_parent(db: sqlite3.Connection, parent_id: int, owner_id: int | None) -> None:
    if PARENT.get(db, parent_id, owner_id) is None:
        raise HTTPException(404, @@parent_not_found@@)
'''


def collection_url(e: Entity) -> str:
    return f"/api/{e.slug}"


def children_url(app: AppModel, e: Entity) -> str:
    return f"/api/{app.entity(e.parent).slug}/{{parent_id}}/{e.slug}"


def api_py(app: AppModel, e: Entity) -> str:
    """The text of src/api_<ident>.py."""
    url = collection_url(e)
    routes = [f"- POST, GET {url}", f"- GET, PUT, DELETE {url}/{{item_id}}"]
    routes += [f"- POST {url}/{{item_id}}/complete"] if e.has_status else []
    routes += [f"- GET {children_url(app, e)}"] if e.parent else []
    common = {
        "url": lit(url), "item_url": lit(url + "/{item_id}"), "camel": e.camel,
        "user": ", user: CurrentUser" if app.auth else "",
        "owner": 'user["id"]' if app.auth else "None",
        "not_found": lit(f"{e.name} not found"),
    }
    header = fill(
        _HEADER, plural_doc=doc(e.plural), routes_doc="\n".join(routes), ident=lit(e.ident),
        scope_doc=("Every route needs a bearer token; other users' records answer 404."
                   if app.auth else "The API is open (the app has no accounts)."),
        auth_import="from src.auth import CurrentUser" if app.auth else "",
        parent_table=f"PARENT = TABLES[{lit(e.parent)}]" if e.parent else "", tag=lit(e.plural))
    check_parent = "\n\n" + fill(
        _CHECK_PARENT, parent_not_found=lit(f"{app.entity(e.parent).name} not found")
    ).rstrip("\n") if e.parent else ""
    handlers = fill(
        _HANDLERS, check_parent=check_parent,
        check_create=f"_check_parent(db, values[{lit(e.fk)}], {common['owner']})" if e.fk else "",
        check_update=(f"if {lit(e.fk)} in values:\n    _check_parent(db, values[{lit(e.fk)}], "
                      f"{common['owner']})") if e.fk else "", **common)
    chunks = [header, _models(e), handlers]
    if e.has_status:
        chunks.append(fill(_COMPLETE, complete_url=lit(url + "/{item_id}/complete"), **common))
    if e.parent:
        chunks.append(fill(_CHILDREN, children_url=lit(children_url(app, e)),
                           parent_doc=doc(app.entity(e.parent).name), **common))
    return module(*chunks)


def _field(c: Column, type_text: str, default: str | None) -> str:
    if c.needs_alias:
        extra = f"default={default}, " if default is not None else ""
        return f"    {c.attr}: {type_text} = Field({extra}alias={lit(c.ident)})"
    return f"    {c.attr}: {type_text}" + (f" = {default}" if default is not None else "")


def _models(e: Entity) -> str:
    create, update, out = [], [], ["    id: int"]
    if e.fk:
        create.append(f"    {e.fk}: Int64")
        update.append(f"    {e.fk}: Int64 = None")
        out.append(f"    {e.fk}: int")
    for c in e.columns:
        base = _FIELD_TYPES[c.type]
        if c.required:
            base = {"ShortText": "RequiredShortText", "LongText": "RequiredLongText"}.get(base, base)
            create.append(_field(c, base, None))
            update.append(_field(c, base, "None"))  # may be omitted, never null
            out.append(_field(c, _OUT_TYPES[c.type], None))
        else:
            create.append(_field(c, f"{base} | None", "None"))
            update.append(_field(c, f"{base} | None", "None"))
            out.append(_field(c, f"{_OUT_TYPES[c.type]} | None", "None"))
    if e.has_status:
        update.append("    status: Status = None")
        out.append("    status: Status")
    out.append("    created_at: str")
    name = doc(e.name)
    return module(
        "\n".join([f"class {e.camel}Create(BaseModel):", f'    """Body that creates a {name}."""',
                   "", *create] if create else [f"class {e.camel}Create(BaseModel):",
                                                f'    """Body that creates a {name} (no fields)."""']),
        "\n".join([f"class {e.camel}Update(BaseModel):",
                   f'    """Partial update of a {name}: omitted fields keep their value."""',
                   "", *update] if update else [f"class {e.camel}Update(BaseModel):",
                                                f'    """Partial update of a {name} (no fields)."""']),
        "\n".join([f"class {e.camel}Out(BaseModel):", f'    """A stored {name}."""', "", *out]))
