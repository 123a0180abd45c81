"""Run the black-box acceptance leg from the harness's own process against the started app.

`run_acceptance` is called by the runtime check (harness/verification/runtime.py) once the app
answers its health check. It runs every spec-derived check (harness/acceptance/derive.py) and
files the plan's or generator's own probes (already sent as round trips) under their requirements,
so each requirement's black-box leg is: spec-derived checks, declared probes, or both.

Strict (the generator wrote the app): every derived check applies. Otherwise (a model wrote it)
an entity whose collection is not at the documented place (GET /api/<plural> is 404), or an app
without /api/auth or /api/dashboard, has no spec-derived checks for those requirements: they are
recorded as "not applicable" and the requirement's leg is its declared probes alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.checks_password_store import password_not_stored, password_salted
from harness.acceptance.checks_soft_delete import kept_rows
from harness.acceptance.checks_stored import survives_restart
from harness.acceptance.derive import Check, derive
from harness.models.results import AcceptanceCheck, RuntimeCheck
from harness.models.spec import AppSpec
from harness.sandbox.judged_files import present

SEEN_ON_FAILURE = 4      # the last requests a failed check shows


def run_acceptance(base: str, spec: AppSpec, steps: list, round_trips: list[RuntimeCheck],
                   strict: bool = True, db: Path | None = None,
                   restart: Callable[[], str | None] | None = None,
                   only: Callable[[Check], bool] | None = None,
                   crowd: int | None = None) -> list[AcceptanceCheck]:
    """`db`: the app's database file (the runtime check's); `restart()`: stops the app and starts
    it again on that file, answering its new base URL (None: it did not come up). Without them the
    stored-password and restart checks (checks_password_store.py, checks_stored.py) are not run. `only`: which derived
    checks to run (all by default; a test's choice). `crowd`: how many accounts the app holds
    before the isolation checks' late account (drawn per run, client.CROWD; a test's choice)."""
    spec = workflow_owns_status(spec)
    checks = sorted((c for c in derive(spec) if only is None or only(c)), key=lambda c: not c.first)
    api = Api(base, spec) if crowd is None else Api(base, spec, crowd=crowd)
    out: list[AcceptanceCheck] = []
    try:
        absent = {} if strict else _absent(api, spec, checks)
        for check in checks:
            if check.requirement in absent:
                continue
            out.append(_run_one(api, check))
        out += _after_the_checks(api, spec, absent, out, round_trips, db, restart,
                                 [c for c in checks if c.again and c.requirement not in absent])
        out += [AcceptanceCheck(requirement=rid, name="spec-derived checks", ok=True, source="n/a", detail=why)
                for rid, why in absent.items()]
    finally:
        api.close()
    order = {r.id: i for i, r in enumerate(spec.requirements)}
    out += probe_results(steps, round_trips)
    return sorted(out, key=lambda c: order.get(c.requirement, len(order)))


def _after_the_checks(api: Api, spec: AppSpec, absent: dict, done: list[AcceptanceCheck],
                      round_trips: list[RuntimeCheck], db: Path | None, restart,
                      again: list[Check]) -> list[AcceptanceCheck]:
    """The restart (only when every check so far passed: one restart per runtime check), then the
    checks marked `again` once more on the restarted app (its writes, updates, deletes and moves
    and the isolation: an app that works only in its first process life fails them), then the
    database read for soft-deleted records still being rows (checks_soft_delete.py) and, with
    accounts, for how the app keeps passwords (salted, none in plain)."""
    out: list[AcceptanceCheck] = []
    mine = spec.model_copy(update={"requirements": [r for r in spec.requirements if r.id not in absent]})
    if restart is not None and all(c.ok for c in done) and all(c.ok for c in round_trips):
        began = time.monotonic()
        out += survives_restart(api, mine, restart)
        for check in out:
            check.ms = int((time.monotonic() - began) * 1000 / max(len(out), 1))
        if out and all(c.ok for c in out):
            out += run_again(api, again)
    if db is not None and present(Path(db)):   # a soft-deleted record is still a row of the file
        began = time.monotonic()
        kept = kept_rows(api, mine, Path(db))
        for check in kept:
            check.ms = int((time.monotonic() - began) * 1000 / max(len(kept), 1))
        out += kept
    auth = next((r.id for r in mine.requirements if r.capability == "auth"), None)
    if db is not None and spec.auth and auth and present(Path(db)):
        for scan in (password_salted, password_not_stored):    # the first registers two more accounts
            began = time.monotonic()
            out.append(scan(api, auth, Path(db)))
            out[-1].ms = int((time.monotonic() - began) * 1000)
    return out


AFTER_RESTART = "after a restart: "


def run_again(api: Api, checks: list[Check]) -> list[AcceptanceCheck]:
    """`checks` once more, on the restarted app, each named "after a restart: <name>"."""
    if not checks:
        return []
    try:
        api.keep_signed_in()
    except CheckFailed as exc:
        return [AcceptanceCheck(requirement=c.requirement, name=AFTER_RESTART + c.name, ok=False, source="spec",
                                detail=f"an account cannot log in again after the restart: {exc}") for c in checks]
    out = []
    for check in checks:
        done = _run_one(api, check)
        done.name = AFTER_RESTART + done.name
        out.append(done)
    return out


def workflow_owns_status(spec: AppSpec) -> AppSpec:
    """The spec as the app takes it (the generator's rule, offline/generator/columns.py `is_status`):
    an entity with a workflow has the workflow's `status`, set by PUT and never sent on create, so a
    `status` enum field next to it is not one of the fields a check sends; with `has_status = true`
    the field's values are the states, any move allowed (no /complete). Without either such a field
    is the user's own like any enum."""
    def is_status(f) -> bool:
        return f.ident in ("status", "status_item") and bool(f.enum_values)

    entities = []
    for e in spec.data_model:
        field = next((f for f in e.fields if is_status(f)), None)
        states = list(dict.fromkeys(field.enum_values)) if field else []
        if field is not None and e.workflow:
            e = e.model_copy(update={"fields": [f for f in e.fields if f is not field]})
        elif field is not None and e.has_status and len(states) >= 2:
            e = e.model_copy(update={"fields": [f for f in e.fields if f is not field], "has_status": False,
                                     "workflow": states,
                                     "transitions": {s: [x for x in states if x != s] for s in states}})
        entities.append(e)
    return spec.model_copy(update={"data_model": entities}) if entities != spec.data_model else spec


def _run_one(api: Api, check: Check) -> AcceptanceCheck:
    seen = len(api.seen)
    started = time.monotonic()
    try:
        detail, ok = check.run(api), True
    except CheckFailed as exc:
        detail, ok = str(exc), False
    except Exception as exc:  # noqa: BLE001 - an unexpected answer shape is the app's failure, shown as data
        detail, ok = f"{type(exc).__name__}: {exc}", False
    if not ok:
        tail = api.seen[seen:][-SEEN_ON_FAILURE:]
        detail += "".join(f"\n  {line}" for line in tail)
    return AcceptanceCheck(requirement=check.requirement, name=check.name, ok=ok, detail=detail,
                           source="spec", ms=int((time.monotonic() - started) * 1000))


def _absent(api: Api, spec: AppSpec, checks: list[Check]) -> dict[str, str]:
    """Requirements whose API is not where the documented convention puts it (model-written apps)."""
    places: dict[str, str] = {}
    for check in checks:
        path = _place(api, spec, check)
        if path:
            places.setdefault(check.requirement, path)
    absent = {}
    found: dict[str, bool] = {}
    for rid, path in places.items():
        if path not in found:
            found[path] = api.call("GET" if path != "/api/auth/login" else "POST", path, body=None).status not in (404, 405)
        if not found[path]:
            absent[rid] = f"the app has no {path} (the documented API): only its declared probes speak for it"
    return absent


def _place(api: Api, spec: AppSpec, check: Check) -> str:
    req = spec.requirement(check.requirement)
    if req is None or req.capability in ("health", "pages"):
        return ""
    if req.capability == "auth":
        return "/api/auth/login"
    if req.capability == "dashboard":
        return "/api/dashboard"
    entity = spec.entity(check.entity) if check.entity else None
    return api.collection(entity) if entity is not None else ""


def probe_results(steps: list, round_trips: list[RuntimeCheck]) -> list[AcceptanceCheck]:
    """The declared probes' outcomes (sent as round trips), each under its requirement."""
    done = {c.name.removeprefix("round trip: "): c for c in round_trips if c.name.startswith("round trip: ")}
    out = []
    for step in steps:
        rid: Any = getattr(step, "requirement", "")
        if not rid:
            continue
        check = done.get(step.name)
        out.append(AcceptanceCheck(requirement=rid, name=f"probe: {step.name}", ok=bool(check and check.ok),
                                   detail=check.detail if check else "not sent: an earlier probe failed",
                                   source="probe"))
    return out
