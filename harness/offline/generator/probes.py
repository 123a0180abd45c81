"""HTTP round-trip probes for a generated app, for the runtime verifier.

round_trip_steps(spec) lists requests to send in order against a fresh database: register and log
in (capturing the bearer token) when the app has accounts, then for every entity, parents first,
create a record with a minimal valid body and read it back by id.

Placeholders: "{name}" in a path, and a body value that is exactly the string "{name}", are
replaced by the value captured earlier under that name (resolve() does it; body values keep the
captured type). A step with auth=True sends "Authorization: Bearer {token}".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from harness.offline.generator.api_py import collection_url
from harness.offline.generator.analyse import analyse
from harness.offline.generator.email_login import email_address
from harness.offline.generator.samples import body
from harness.models.spec import AppSpec

from harness.acceptance.convention import PROBE_USER  # noqa: E402  (the black-box leg signs in with it)
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class ProbeStep:
    name: str
    method: str
    path: str
    body: dict | None
    expect_status: int
    capture: dict[str, str]   # captured name -> key of the JSON response
    auth: bool


def round_trip_steps(spec: AppSpec) -> list[ProbeStep]:
    """Register/login (when auth) then create + read back one record per entity, parents first."""
    app = analyse(spec)
    steps: list[ProbeStep] = []
    if app.auth:
        user = ({"email": email_address(PROBE_USER["username"]), "password": PROBE_USER["password"]}
                if app.email_login else dict(PROBE_USER))
        steps += [
            ProbeStep("register", "POST", "/api/auth/register", dict(user), 201, {}, False),
            ProbeStep("login", "POST", "/api/auth/login", dict(user), 200, {"token": "token"}, False),
        ]
    if not app.supported:
        return steps  # nothing is generated for a spec the offline generator cannot build
    for e in app.entities:
        payload: dict[str, Any] = body(e, full=False)
        if e.fk:
            payload[e.fk] = "{" + f"{e.parent}_id" + "}"
        for c in e.refs:  # references point at records created earlier (dependency order)
            if c.required:
                payload[c.ident] = "{" + f"{c.ref}_id" + "}"

        url = collection_url(e)
        steps += [
            ProbeStep(f"create_{e.ident}", "POST", url, payload, 201, {f"{e.ident}_id": "id"}, app.auth),
            ProbeStep(f"get_{e.ident}", "GET", url + "/{" + f"{e.ident}_id" + "}", None, 200, {}, app.auth),
        ]
    return steps


def resolve(step: ProbeStep, captured: dict[str, Any]) -> tuple[str, dict | None, dict[str, str]]:
    """The concrete (path, body, headers) of `step`; raises KeyError for a value not captured."""
    path = _PLACEHOLDER.sub(lambda m: str(captured[m.group(1)]), step.path)
    payload = None
    if step.body is not None:
        payload = {}
        for key, value in step.body.items():
            whole = _PLACEHOLDER.fullmatch(value) if isinstance(value, str) else None
            payload[key] = captured[whole.group(1)] if whole else value
    headers = {"Authorization": f"Bearer {captured['token']}"} if step.auth else {}
    return path, payload, headers
