"""The runtime check's round trips (harness/verification/runtime.py): the plan's HTTP steps run in
order against the served app, each response recorded as evidence; a step's captures fill the
placeholders of later steps."""

from __future__ import annotations

import re
from typing import Any

from harness.verification.http_probe import HttpResponse, request

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def probe(base: str, method: str, path: str, rec: Any, body: Any = None,
           headers: dict[str, str] | None = None, follow_redirects: bool = True) -> HttpResponse:
    resp = request(method, base + path, body, headers, follow_redirects=follow_redirects)
    rec.evidence.append(f"{method} {path} → {resp.status or 'no response'} {resp.excerpt()}".rstrip())
    return resp


def round_trips(base: str, steps: list, rec: Any) -> None:
    """Run the steps in order, stopping at the first failure (later steps need its captures)."""
    values: dict[str, Any] = {}
    for step in steps:
        if not rec.check(f"round trip: {step.name}", *round_trip(base, step, values, rec)):
            return


def _fill_body(body: dict | None, values: dict[str, Any]) -> dict | None:
    """Body values that are exactly "{name}" become the captured value (keeping its JSON type)."""
    if body is None:
        return None
    out = {}
    for key, value in body.items():
        whole = _PLACEHOLDER.fullmatch(value) if isinstance(value, str) else None
        out[key] = values[whole.group(1)] if whole else value
    return out


def round_trip(base: str, step: Any, values: dict[str, Any], rec: Any) -> tuple[bool, str]:
    body_vars = [m.group(1) for v in (step.body or {}).values() if isinstance(v, str)
                 for m in [_PLACEHOLDER.fullmatch(v)] if m]
    missing = [n for n in _PLACEHOLDER.findall(step.path) + body_vars if n not in values]
    if step.auth and "token" not in values:
        missing.append("token")
    if missing:
        return False, f"no captured value for {', '.join(sorted(set(missing)))}"
    path = _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), step.path)
    headers = {"Authorization": f"Bearer {values['token']}"} if step.auth else None
    method = step.method.upper()
    resp = probe(base, method, path, rec, _fill_body(step.body, values), headers, follow_redirects=False)
    where = f" Location: {resp.location}" if resp.location else ""
    detail = f"{method} {path} → {resp.status or 'no response'}{where} {resp.excerpt()}".rstrip()
    if resp.status != step.expect_status:
        return False, f"{detail} (expected {step.expect_status})"
    expected = getattr(step, "expect_location", None)
    if expected:
        wanted = _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), expected)
        if not _same_location(resp.location, wanted, base):
            return False, f"{detail} (expected Location {wanted})"
    data = resp.json()
    for var, key in (step.capture or {}).items():
        if not isinstance(data, dict) or key not in data:
            return False, f"{detail} (no '{key}' to capture)"
        values[var] = data[key]
    return True, detail


def _same_location(got: str, wanted: str, base: str) -> bool:
    """A Location matches when equal, or equal once this app's own origin is dropped from it."""
    return got == wanted or (wanted.startswith("/") and got.removeprefix(base) == wanted)
