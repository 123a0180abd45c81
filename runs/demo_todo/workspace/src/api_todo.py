"""REST API for todos.

- POST, GET /api/todos
- GET, PUT, DELETE /api/todos/{item_id}
- POST /api/todos/{item_id}/complete

The API is open (the app has no accounts).
Invalid input is 422, an unknown id is 404.
"""

import datetime as _dt
import sqlite3
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Response
from pydantic import BaseModel, Field

from src.models import TABLES, get_db

MAX_ID = 2**63 - 1  # SQLite INTEGER range; larger numbers are 422, not an overflow
TABLE = TABLES['todo']
router = APIRouter(tags=['todos'])

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


class TodoCreate(BaseModel):
    """Body that creates a todo."""

    title: RequiredShortText


class TodoUpdate(BaseModel):
    """Partial update of a todo: omitted fields keep their value."""

    title: RequiredShortText = None
    status: Status = None


class TodoOut(BaseModel):
    """A stored todo."""

    id: int
    title: str
    status: Status
    created_at: str


def _found(row: dict[str, Any] | None) -> dict[str, Any]:
    if row is None:
        raise HTTPException(404, 'todo not found')
    return row


@router.post('/api/todos', status_code=201, response_model=TodoOut)
def create_item(body: TodoCreate, db: Db) -> dict[str, Any]:
    values = body.model_dump(mode="json", by_alias=True)
    return TABLE.insert(db, values, None)


@router.get('/api/todos', response_model=list[TodoOut])
def list_items(db: Db, limit: Limit = 100, offset: Offset = 0) -> list[dict[str, Any]]:
    return TABLE.rows(db, None, limit, offset)


@router.get('/api/todos/{item_id}', response_model=TodoOut)
def read_item(item_id: RowId, db: Db) -> dict[str, Any]:
    return _found(TABLE.get(db, item_id, None))


@router.put('/api/todos/{item_id}', response_model=TodoOut)
def update_item(item_id: RowId, body: TodoUpdate, db: Db) -> dict[str, Any]:
    """Partial update: only the fields present in the body change."""
    values = body.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return _found(TABLE.update(db, item_id, values, None))


@router.delete('/api/todos/{item_id}', status_code=204)
def delete_item(item_id: RowId, db: Db) -> Response:
    if not TABLE.delete(db, item_id, None):
        raise HTTPException(404, 'todo not found')
    return Response(status_code=204)


@router.post('/api/todos/{item_id}/complete', response_model=TodoOut)
def complete_item(item_id: RowId, db: Db) -> dict[str, Any]:
    """Mark the record done."""
    _found(TABLE.get(db, item_id, None))
    return _found(TABLE.set_status(db, item_id, "done", None))
