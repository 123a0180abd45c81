"""Black-box checks that look past one running server: records survive a restart on the same
database (how passwords are kept: checks_password_store.py).

The runtime check owns the server and its database (a temp directory of the harness's, outside
the sandbox): it hands `run_acceptance` a `restart()` that stops the app and starts it again on the
same database file (returning its new base URL, or None when it did not come up), and the file's
path. Both run after every other check, the restart only when those all passed (one restart per
runtime check). An app that drops its tables at start-up, or keeps its records in memory, passed
every check of one server's life (issue #47, hostile trial A7).
"""

from __future__ import annotations

from collections.abc import Callable

from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.derive import feature_of
from harness.models.results import AcceptanceCheck
from harness.models.spec import AppSpec


def restart_owners(spec: AppSpec) -> list[tuple[str, str]]:
    """(requirement, entity) pairs a restart check is filed under: each entity's create/crud
    requirement, and a persistence feature's requirement for its entity."""
    out = []
    for req in spec.requirements:
        if req.entity and spec.entity(req.entity) is not None:
            if req.capability in ("create", "crud"):
                out.append((req.id, req.entity))
            elif req.capability == "feature" and (f := feature_of(spec, req)) is not None and f.kind == "persistence":
                out.append((req.id, req.entity))
    return out


def survives_restart(api: Api, spec: AppSpec, restart: Callable[[], str | None]) -> list[AcceptanceCheck]:
    """One record of each entity made, the app restarted on its database, each read back equal
    (signing in again only when the old token no longer works)."""
    owners = restart_owners(spec)
    if not owners:
        return []
    made, failed = {}, ""
    try:
        for _rid, ident in owners:
            if ident not in made:
                entity = spec.entity(ident)
                made[ident] = api.create(entity, api.account("first"))
    except CheckFailed as exc:
        failed = f"making the records to restart with: {exc}"
    base = restart() if not failed else None
    if base is None and not failed:
        failed = "the app did not answer again after a restart on its own database (the runtime evidence says why)"
    if base:
        api.moved_to(base)
    out = []
    for rid, ident in owners:
        entity = spec.entity(ident)
        name = f"a {entity.name} created before a restart is read back after it"
        try:
            if failed:
                raise CheckFailed(failed)
            detail = _read_back(api, entity, made[ident])
            out.append(AcceptanceCheck(requirement=rid, name=name, ok=True, detail=detail, source="spec"))
        except CheckFailed as exc:
            tail = "".join(f"\n  {line}" for line in api.seen[-3:])
            out.append(AcceptanceCheck(requirement=rid, name=name, ok=False, detail=f"{exc}{tail}", source="spec"))
    return out


def _read_back(api: Api, entity, rec: dict) -> str:
    who = api.account("first")
    url = f"{api.collection(entity)}/{rec['id']}"
    got = api.call("GET", url, who)
    if got.status == 401 and who is not None:   # tokens kept in memory: the account must still log in
        try:
            fresh = api.sign_in_again(who)
        except CheckFailed as exc:
            raise CheckFailed(f"after a restart the account that made it cannot log in again: {exc}") from None
        got = api.call("GET", url, fresh)
    if got.status != 200 or not isinstance(got.body, dict):
        raise CheckFailed(f"after a restart GET {url} → {got.line}")
    mine = {f.ident for f in entity.fields} | {k for k in rec if k == "id" or k.endswith("_id")}
    lost = {k: (v, got.body.get(k)) for k, v in rec.items() if k in mine and got.body.get(k) != v}
    if lost:
        raise CheckFailed("after a restart the record reads " + ", ".join(f"{k} {b!r} (was {a!r})" for k, (a, b) in lost.items()))
    return f"{entity.name} {rec['id']} read back equal after the app was stopped and started on its database"
