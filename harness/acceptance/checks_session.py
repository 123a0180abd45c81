"""Black-box checks of an account's session and password (the `auth` capability): log out ends the
token (and the page session cookie), and a password near the right one is refused.

A logout that answers 204 and ends nothing, or a password check that compares a prefix, the text
in another letter case or a truncated value, passes every check that only tries the right password,
no token and an unrelated wrong one (issue #47, hostile trial A1/A9/A19)."""

from __future__ import annotations

import re

from harness.acceptance.client import Api, CheckFailed
from harness.models.spec import AppSpec, Requirement

_LOGOUT = re.compile(r"\blog ?out\b|\blogs out\b|\blogged out\b|\bsign ?out\b|\bsigns out\b", re.I)
REFUSED = (401, 403, 429)         # a login refused (429: throttled, which refuses it too)


def states_logout(spec: AppSpec, req: Requirement) -> bool:
    """The spec gives its accounts a way to log out: the auth requirement says so."""
    return spec.auth and bool(_LOGOUT.search(f"{req.text} {req.acceptance}"))


def near_misses(password: str) -> dict[str, str]:
    """Wrong passwords an app comparing too little would take: (what, value)."""
    last = password[-1]
    return {"the last character changed": password[:-1] + ("0" if last != "0" else "1"),
            "another letter case": password.swapcase(),
            "one character short": password[:-1],
            "one character longer": password + last}


def near_passwords_refused(api: Api) -> str:
    """An account that logged in with its password (the checks' second one: its token stays
    good) logs in with near misses of it: each refused. Every login costs the app a password hash,
    so no account of its own."""
    who = api.account("second")
    for what, wrong in near_misses(api.password).items():
        got = api.call("POST", "/api/auth/login", body=api.credentials(who.name, wrong))
        if got.status not in REFUSED:
            raise CheckFailed(f"a password with {what} logged in: expected 401, got {got.line}")
    return "the password with its last character changed, in another letter case, one short, one longer → 401"


def logout_ends_session(api: Api, spec: AppSpec) -> str:
    """POST /api/auth/logout with a token → the token is refused afterwards (me and every data
    route); with pages, the session cookie /login set no longer signs a page in after /logout."""
    name = api.new_name()
    who = api.sign_up(name)
    api.expect(api.call("GET", "/api/auth/me", who), 200, what="who am I before logging out")
    api.expect(api.call("POST", "/api/auth/logout", who), 200, 204, what="log out")
    api.expect(api.call("GET", "/api/auth/me", who), 401, what="the logged-out token on /api/auth/me")
    for entity in spec.data_model:   # anyone reads a public entity's list: adding one needs the token
        method, body = ("POST", {}) if entity.read == "public" else ("GET", None)
        api.expect(api.call(method, api.collection(entity), who, body), 401,
                   what=f"the logged-out token on {method} {api.collection(entity)}")
    done = "the token after POST /api/auth/logout → 401"
    if spec.pages and spec.html:
        done += "; " + _page_logout(api, name)
    return done


def _page_logout(api: Api, name: str) -> str:
    """The page session: POST /login (a form) sets a cookie that signs the pages in; after POST
    /logout the same cookie must not (the page answers a redirect or 401, or no longer names the
    account)."""
    got, cookies = api.form("/login", api.credentials(name))
    if got.status in (404, 405):
        return "no form login (pages use the bearer token)"
    if got.status not in (200, 302, 303) or not cookies:
        raise CheckFailed(f"the login form: expected a redirect setting a session cookie, got {got.line}")
    shown = api.form("/", {}, cookies, method="GET")[0]
    if name not in shown.text:
        raise CheckFailed(f"GET / with the session cookie does not show the signed-in account {name!r}: {shown.line}")
    api.form("/logout", {}, cookies)
    after = api.form("/", {}, cookies, method="GET")[0]
    if after.status == 200 and name in after.text:
        raise CheckFailed(f"after POST /logout the old session cookie still signs GET / in as {name!r}: {after.line}")
    return "the session cookie after POST /logout no longer signs a page in"
