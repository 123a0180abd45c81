"""Black-box checks of soft delete (`delete = "soft"`, docs/spec-language.md): written from the spec
and the documented routes only (harness/acceptance/convention.py).

Over HTTP: a deleted record leaves the list and its GET (404), shows in GET /api/<plural>/deleted,
and POST /api/<plural>/{id}/restore brings it back equal, listed again and gone from the deleted
list. After every check the harness reads the app's SQLite file: a record deleted through the API
must still be a row there — an app that removes the row and keeps the record elsewhere (a hard
delete behind a working API) fails that check alone."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import TEXT_KINDS, kind_of
from harness.models.results import AcceptanceCheck
from harness.models.spec import AppSpec, DataEntity
from harness.sandbox.judged_files import sqlite_copy

KEPT = "a deleted {name} is still a row in the database"


def _same(before: dict, after: dict) -> list[str]:
    """The fields of `before` that `after` shows differently (deleted_at aside)."""
    return [k for k, v in before.items() if k != "deleted_at" and after.get(k) != v]


def deleted_then_restored(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    who = api.writer(entity)
    url = api.collection(entity)
    gone, kept = api.create(entity, who), api.create(entity, who)
    before = api.expect(api.call("GET", f"{url}/{gone['id']}", who), 200, what=f"read the {entity.name}").body
    api.expect(api.call("DELETE", f"{url}/{gone['id']}", who), 204, 200, what=f"delete the {entity.name}")
    api.expect(api.call("GET", f"{url}/{gone['id']}", who), 404, what=f"read a deleted {entity.name}")
    listed = {i.get("id") for i in api.listed(url, who)}
    if gone["id"] in listed or kept["id"] not in listed:
        raise CheckFailed(f"after DELETE the list of {entity.plural} shows ids {sorted(listed)[:10]}: the deleted "
                          f"#{gone['id']} must be gone and #{kept['id']} still there")
    trash = {i.get("id"): i for i in api.listed(f"{url}/deleted", who)}
    if gone["id"] not in trash or kept["id"] in trash:
        raise CheckFailed(f"GET {url}/deleted shows ids {sorted(trash)[:10]}: not exactly the deleted #{gone['id']}")
    back = api.expect(api.call("POST", f"{url}/{gone['id']}/restore", who), 200, 201, what="restore it")
    again = api.expect(api.call("GET", f"{url}/{gone['id']}", who), 200, what=f"read the restored {entity.name}").body
    changed = _same(before, again if isinstance(again, dict) else {})
    if changed:
        raise CheckFailed(f"the restored {entity.name} differs from the one deleted in {changed}: {back.line}")
    if gone["id"] not in {i.get("id") for i in api.listed(url, who)}:
        raise CheckFailed(f"the restored {entity.name} #{gone['id']} is not listed again")
    if gone["id"] in {i.get("id") for i in api.listed(f"{url}/deleted", who)}:
        raise CheckFailed(f"the restored {entity.name} #{gone['id']} is still in the deleted list")
    detail = "DELETE → gone from the list and GET 404 → in the deleted list → restore → equal, listed again"
    if spec.auth:
        other = api.sign_up(api.new_name())
        api.expect(api.call("DELETE", f"{url}/{gone['id']}", who), 204, 200, what=f"delete the {entity.name} again")
        theirs = api.call("GET", f"{url}/deleted", other)
        if theirs.ok() and isinstance(theirs.body, list) and gone["id"] in {i.get("id") for i in theirs.body
                                                                           if isinstance(i, dict)}:
            raise CheckFailed(f"another account sees the deleted {entity.name}: {theirs.line}")
        stolen = api.call("POST", f"{url}/{gone['id']}/restore", other)
        if stolen.status not in (403, 404):
            raise CheckFailed(f"another account restores the deleted {entity.name}: {stolen.line}")
        api.expect(api.call("POST", f"{url}/{gone['id']}/restore", who), 200, 201, what="restore it again")
        detail += f"; another account: deleted list without it, restore → {stolen.status}"
    return detail


def soft_entities(spec: AppSpec) -> list[DataEntity]:
    return [e for e in spec.data_model if e.soft_delete]


def _marks(api: Api, entity: DataEntity, made: dict) -> set[str]:
    """The values a stored row of the record must hold: its text fields' (the run's own token is in
    them), or every plain value when it has none."""
    texts = {f.ident for f in entity.fields if kind_of(f) in TEXT_KINDS}
    chosen = [made.get(k) for k in (texts or {f.ident for f in entity.fields if not f.ref})]
    return {str(v) for v in chosen if isinstance(v, (str, int, float)) and not isinstance(v, bool) and v != ""}


def _rows(db: Path) -> list[tuple]:
    with sqlite_copy(db) as copy:   # a private copy: never a link the app made (judged_files.py)
        conn = sqlite3.connect(copy)
        try:
            out = []
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                out += conn.execute(f'SELECT * FROM "{table.replace(chr(34), chr(34) * 2)}"').fetchall()
            return out
        finally:
            conn.close()


def deleted_row_kept(api: Api, spec: AppSpec, rid: str, entity: DataEntity, db: Path) -> AcceptanceCheck:
    """A record deleted through the API is still a row of the database file (any table)."""
    name = KEPT.format(name=entity.name)
    try:
        who = api.writer(entity)
        made = api.create(entity, who)
        api.expect(api.call("DELETE", f"{api.collection(entity)}/{made['id']}", who), 204, 200,
                   what=f"delete the {entity.name}")
        marks = _marks(api, entity, made)
        rows = _rows(db)
    except CheckFailed as exc:
        return AcceptanceCheck(requirement=rid, name=name, ok=False, source="spec", detail=str(exc))
    except sqlite3.Error as exc:
        return AcceptanceCheck(requirement=rid, name=name, ok=False, source="spec",
                               detail=f"the app's database {db.name} could not be read: {type(exc).__name__}: {exc}")
    if not marks:
        return AcceptanceCheck(requirement=rid, name=name, ok=True, source="spec",
                               detail="the record has no value to find it by in the database: not read")
    kept = any(marks <= {str(v) for v in row if v is not None} for row in rows)
    detail = (f"after DELETE the row holding {sorted(marks)[:3]} is still in the database" if kept else
              f"after DELETE no row of the database holds the {entity.name}'s values {sorted(marks)[:3]}: "
              "the record was removed (a hard delete), not marked deleted")
    return AcceptanceCheck(requirement=rid, name=name, ok=kept, source="spec", detail=detail)


def kept_rows(api: Api, spec: AppSpec, db: Path) -> list[AcceptanceCheck]:
    """The database read of every soft-deleted entity that has a requirement (after the checks)."""
    out = []
    for e in soft_entities(spec):
        rid = next((r.id for r in spec.requirements if r.capability == "soft_delete" and r.entity == e.ident), None)
        if rid is not None:
            out.append(deleted_row_kept(api, spec, rid, e, db))
    return out
