"""REST API for todos.

- POST, GET /api/todos
- GET, PUT, DELETE /api/todos/{item_id}
- POST /api/todos/{item_id}/complete

The API is open (the app has no accounts).
Invalid input is 422 (unknown fields too), an unknown id is 404, a conflict (a record still
referred to, a status move the workflow does not allow) is 409.
"""

import sqlite3
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Response

from src.fieldtypes import (MAX_ID, Annotated, BaseModel, Literal, RequiredShortText, Strict, error_responses)
from src.models import TABLES, get_db

TABLE = TABLES['todo']
REFERENCES: dict[str, tuple[str, str]] = {}  # field -> (table, label)
Status = Literal['open', 'done']
NEXT_STATES: dict[str, tuple[str, ...]] = {'open': ('done',), 'done': ('open',)}
router = APIRouter(tags=['todos'], responses=error_responses(False))

Db = Annotated[sqlite3.Connection, Depends(get_db)]
RowId = Annotated[int, Path(ge=-MAX_ID - 1, le=MAX_ID)]
Limit = Annotated[int, Query(ge=1, le=500)]
Offset = Annotated[int, Query(ge=0, le=MAX_ID)]


class TodoCreate(Strict):
    """Body that creates a todo."""

    title: RequiredShortText


class TodoUpdate(Strict):
    """Partial update of a todo: omitted fields keep their value."""

    title: RequiredShortText = None
    status: Status = None


class TodoOut(BaseModel):
    """A stored todo."""

    id: int
    title: str
    status: str
    created_at: str


def _found(row: dict[str, Any] | None) -> dict[str, Any]:
    if row is None:
        raise HTTPException(404, 'todo not found')
    return row


def _stored(write: Any) -> Any:
    """Run a write; a UNIQUE field that already has the value is a 409, not a 500."""
    try:
        return write()
    except sqlite3.IntegrityError as exc:
        raise HTTPException(409, f"already exists: {exc}".replace("UNIQUE constraint failed: ", "")) from None


@router.post('/api/todos', status_code=201, response_model=TodoOut)
def create_item(body: TodoCreate, db: Db) -> dict[str, Any]:
    values = body.model_dump(mode="json", by_alias=True)
    return _stored(lambda: TABLE.insert(db, values, None))


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
    current = _found(TABLE.get(db, item_id, None))
    if "status" in values and values["status"] != current["status"]:
        allowed = NEXT_STATES[current["status"]]
        if values["status"] not in allowed:
            raise HTTPException(409, f"cannot move from {current['status']!r} to {values['status']!r}; "
                                     f"allowed: {', '.join(allowed) or 'none'}")

    return _found(_stored(lambda: TABLE.update(db, item_id, values, None)))


@router.delete('/api/todos/{item_id}', status_code=204, response_class=Response)
def delete_item(item_id: RowId, db: Db) -> None:
    try:
        deleted = TABLE.delete(db, item_id, None)
    except sqlite3.IntegrityError:
        raise HTTPException(409, 'todo is still referred to by other records; delete those first') from None
    if not deleted:
        raise HTTPException(404, 'todo not found')
    return None  # the route's 204: an empty body, no content type


@router.post('/api/todos/{item_id}/complete', response_model=TodoOut)
def complete_item(item_id: RowId, db: Db) -> dict[str, Any]:
    """Mark the record done."""
    _found(TABLE.get(db, item_id, None))
    return _found(TABLE.set_status(db, item_id, "done", None))
