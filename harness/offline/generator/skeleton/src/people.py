"""Who may see and change what: the signed-in user as a Viewer (an id with a role), the people
directory and the admin's role changes, under /api/auth.

- GET /api/auth/users: every account (id, username, role), for choosing whom to assign a record to
- GET /api/auth/users/me: the signed-in account with its role
- PUT /api/auth/users/{user_id}/role {"role": "..."}: the admin role only (403 otherwise); an
  unknown role is 422, an unknown account 404, demoting the last admin 409

The tables (src/models.py) scope their rows by the Viewer: an admin (models.ADMIN_ROLE) and the
role that manages a table see every row; others see their own, the shared and the assigned ones.
The first account registered gets the admin role (a trigger in the schema).
"""

import sqlite3
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path
from pydantic import BaseModel, ConfigDict

from src.auth import CurrentUser
from src.models import ADMIN_ROLE, ROLES, get_db

router = APIRouter(prefix="/api/auth", tags=["auth"])
Db = Annotated[sqlite3.Connection, Depends(get_db)]
MAX_ID = 2**63 - 1


class Viewer(int):
    """A signed-in user's id that carries the user's role (None when the app has no roles)."""

    role: str | None

    def __new__(cls, user_id: int, role: str | None) -> "Viewer":
        viewer = super().__new__(cls, user_id)
        viewer.role = role
        return viewer


class PersonOut(BaseModel):
    id: int
    username: str
    role: str | None = None


class RoleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str


def role_of(db: sqlite3.Connection, user_id: int) -> str | None:
    if not ROLES:
        return None
    row = db.execute('SELECT "role" FROM "users" WHERE "id" = ?', (user_id,)).fetchone()
    return row[0] if row else None


def as_viewer(db: sqlite3.Connection, user: dict[str, Any]) -> Viewer:
    """The user (from the bearer token or the session cookie) as a Viewer; the role is read once."""
    if "role" not in user:
        user["role"] = role_of(db, user["id"])
    return Viewer(user["id"], user["role"])


def require_role(viewer: Viewer, role: str | None) -> None:
    """403 unless the viewer has `role` or the admin role."""
    if viewer.role is None or viewer.role not in (ADMIN_ROLE, role):
        raise HTTPException(403, f"only the {role or ADMIN_ROLE} role may do this")


def check_user(db: sqlite3.Connection, user_id: int | None) -> None:
    """422 when a record is assigned to an account that does not exist."""
    if user_id is not None and db.execute('SELECT 1 FROM "users" WHERE "id" = ?', (user_id,)).fetchone() is None:
        raise HTTPException(422, f"assigned_to: user {user_id} does not exist")


def _people(db: sqlite3.Connection) -> list[dict[str, Any]]:
    role = ', "role"' if ROLES else ""
    rows = db.execute(f'SELECT "id", "username"{role} FROM "users" ORDER BY "id"').fetchall()
    return [dict(row) for row in rows]


@router.get("/users", response_model=list[PersonOut],
            responses={401: {"description": "Missing or invalid bearer token"}})
def list_people(db: Db, user: CurrentUser) -> list[dict[str, Any]]:
    return _people(db)


@router.get("/users/me", response_model=PersonOut,
            responses={401: {"description": "Missing or invalid bearer token"}})
def whoami(db: Db, user: CurrentUser) -> dict[str, Any]:
    viewer = as_viewer(db, user)
    return {"id": int(viewer), "username": user["username"], "role": viewer.role}


@router.put("/users/{user_id}/role", response_model=PersonOut,
            responses={401: {"description": "Missing or invalid bearer token"},
                       403: {"description": "Only the admin role sets roles"},
                       404: {"description": "No such account"},
                       409: {"description": "The last admin cannot be demoted"},
                       422: {"description": "Unknown role"}})
def set_role(body: RoleIn, db: Db, user: CurrentUser,
             user_id: Annotated[int, Path(ge=1, le=MAX_ID)]) -> dict[str, Any]:
    require_role(as_viewer(db, user), ADMIN_ROLE)
    if body.role not in ROLES:
        raise HTTPException(422, f"role must be one of: {', '.join(ROLES)}")
    found = next((p for p in _people(db) if p["id"] == user_id), None)
    if found is None:
        raise HTTPException(404, "no such account")
    admins = [p for p in _people(db) if p.get("role") == ADMIN_ROLE]
    if found.get("role") == ADMIN_ROLE and body.role != ADMIN_ROLE and len(admins) == 1:
        raise HTTPException(409, "the last admin cannot be demoted")
    with db:
        db.execute('UPDATE "users" SET "role" = ? WHERE "id" = ?', (body.role, user_id))
    return {**found, "role": body.role}
