"""Account features under /api/auth: POST /api/auth/password changes the signed-in user's password.

Body {"current_password": "...", "new_password": "..."}: 204 when changed (every other session of
the account ends; this one stays signed in), 403 when the current password is wrong, 422 when the
new password is too short or long, a common one, or the same as the current one.
"""

import hashlib
import sqlite3
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from src.auth import COMMON_PASSWORDS, CurrentUser, hash_password, request_token, verify_password
from src.models import get_db

router = APIRouter(prefix="/api/auth", tags=["auth"])
Db = Annotated[sqlite3.Connection, Depends(get_db)]


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current_password: str = Field(min_length=1, max_length=128)
    new_password: str = Field(min_length=8, max_length=128)

    @field_validator("new_password")
    @classmethod
    def not_common(cls, password: str) -> str:   # the same policy as registration
        if password.lower() in COMMON_PASSWORDS:
            raise ValueError("password is too common; choose another")
        return password


def change_password(db: sqlite3.Connection, user_id: int, current: str, new: str,
                    keep_token: str | None) -> None:
    """Check `current`, store `new`, end the account's other sessions; HTTPException otherwise."""
    row = db.execute('SELECT "password_hash" FROM "users" WHERE "id" = ?', (user_id,)).fetchone()
    if row is None or not verify_password(current, row[0]):
        raise HTTPException(403, "the current password is wrong")
    if new == current:
        raise HTTPException(422, "the new password must differ from the current one")
    keep = hashlib.sha256((keep_token or "").encode("utf-8", "replace")).hexdigest()
    with db:
        db.execute('UPDATE "users" SET "password_hash" = ? WHERE "id" = ?', (hash_password(new), user_id))
        db.execute('DELETE FROM "sessions" WHERE "user_id" = ? AND "token_hash" != ?', (user_id, keep))


@router.post("/password", status_code=204, response_class=Response,
             responses={401: {"description": "Missing or invalid bearer token"},
                        403: {"description": "The current password is wrong"},
                        422: {"description": "The new password is too short, too long or unchanged"}})
def password(body: PasswordChange, request: Request, user: CurrentUser, db: Db) -> None:
    change_password(db, user["id"], body.current_password, body.new_password, request_token(request))
    return None  # the route's 204: an empty body, no content type
