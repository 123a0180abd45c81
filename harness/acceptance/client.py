"""The acceptance checks' HTTP side: one keep-alive httpx client from the harness's own process to
the app the runtime check started, the accounts the checks sign in with, and the records they make.

Every request is recorded (method, path, status, excerpt) so a failed check can show what it saw.
"""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass, field
from typing import Any

import httpx

from harness.utils.browser_headers import EVERY_REQUEST, headers_for
from harness.constructs.parent_key import parent_key_of
from harness.acceptance.phrases import Phrases, password
from harness.acceptance.samples import kind_of, later, slot_fill, slot_of, roomy_value, valid_value
from harness.models.spec import AppSpec, DataEntity
from harness.constructs.capacity import spec_capacity
from harness.constructs.field_limit import bound_fields
from harness.constructs.collection_url import collection_slug
from harness.constructs.slot import Slot

TIMEOUT_S = 5.0
CROWD = (2, 12)          # how many accounts the app holds before the late account: drawn per run


def draw_crowd() -> int:
    """From the system's random source, uniform over CROWD: the app cannot know it."""
    low, high = CROWD
    return low + secrets.randbelow(high - low + 1)


def run_password() -> str:
    """The password every account of one run signs up with: random per run (the stored-password
    scan looks for it in the app's database), ordinary words in mixed case and digits, long enough
    for any policy, with no fixed part (phrases.password)."""
    return password()


class CheckFailed(Exception):
    """A check's expectation did not hold; the message says what was expected and what came back."""


@dataclass
class Answer:
    status: int
    body: Any
    text: str
    line: str          # "POST /api/todos → 201 {...}"

    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class Account:
    name: str
    token: str = ""

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


@dataclass
class Api:
    """The app under check, seen only through HTTP."""

    base: str
    spec: AppSpec
    phrases: Phrases = field(default_factory=Phrases)   # the run's text values: ordinary words
    password: str = field(default_factory=run_password)
    seen: list[str] = field(default_factory=list)
    _accounts: dict[str, Account] = field(default_factory=dict)
    _numbers: Any = field(default_factory=lambda: itertools.count(1))
    _pool: dict[tuple[str, str], int] = field(default_factory=dict)
    _registered: list[str] = field(default_factory=list)
    crowd: int = field(default_factory=draw_crowd)

    def __post_init__(self) -> None:
        # Plain HTTP to the check's own server on 127.0.0.1 only (no proxy, no redirect followed):
        # no TLS context is built (loading the CA bundle cost ~15 ms of CPU per client, two a check).
        self.http = httpx.Client(base_url=self.base, timeout=TIMEOUT_S, trust_env=False,
                                 follow_redirects=False, headers=EVERY_REQUEST, verify=False)
        self.phrases.keep_clear_of(self.spec.model_dump_json())   # no value holds a word of the app's

    def close(self) -> None:
        self.http.close()

    def moved_to(self, base: str) -> None:
        """The app answers at `base` now (started again after a restart): a new connection."""
        self.http.close()
        self.base = base
        self.__post_init__()

    def number(self) -> int:
        return next(self._numbers)

    # ---- requests -------------------------------------------------------------------------------

    def headers(self, accept: str, who: Account | None = None, form: bool = False) -> dict[str, str]:
        """A browser's headers for this kind of request (utils/browser_headers.py) and the token."""
        return {**headers_for(accept, self.base, form), **(who.headers if who else {})}

    def call(self, method: str, path: str, who: Account | None = None, body: Any = None,
             params: dict | None = None, accept: str = "application/json") -> Answer:
        shown = path + (f"?{httpx.QueryParams(params)}" if params else "")
        return self.send(method, path, self.headers(accept, who), shown, json=body, params=params)

    def send(self, method: str, path: str, headers: dict[str, str], shown: str, **request: Any) -> Answer:
        """One request, recorded in `seen` as `METHOD <shown> → status excerpt` (no answer: a
        CheckFailed naming it); the body parsed when it is JSON."""
        try:
            resp = self.http.request(method, path, headers=headers, **request)
        except httpx.HTTPError as exc:
            line = f"{method} {path} → no response ({type(exc).__name__})"
            self.seen.append(line)
            raise CheckFailed(line) from None
        try:
            data = resp.json()
        except ValueError:
            data = None
        line = f"{method} {shown} → {resp.status_code} {_excerpt(resp.text)}".rstrip()
        self.seen.append(line)
        return Answer(resp.status_code, data, resp.text, line)

    def expect(self, answer: Answer, *statuses: int, what: str = "") -> Answer:
        if answer.status not in statuses:
            want = "/".join(str(s) for s in statuses)
            raise CheckFailed(f"{what + ': ' if what else ''}expected {want}, got {answer.line}")
        return answer

    # ---- accounts -------------------------------------------------------------------------------

    def account(self, label: str = "first") -> Account | None:
        """A registered, logged-in account (None when the app has no auth); one per label."""
        if not self.spec.auth:
            return None
        if label != "first" and self.spec.roles and "first" not in self._accounts:
            self.account("first")   # the first account ever registered is the admin: "first" is it
        if label not in self._accounts:
            self._accounts[label] = self.sign_up(self.new_name())
        return self._accounts[label]

    def new_name(self) -> str:
        """A new account's name: two ordinary words drawn per run (phrases.py), so that no account's
        name tells the app that the checks made it, or what for."""
        return self.phrases.username()

    def late_account(self) -> Account | None:
        """An account registered after `crowd` others (drawn per run, 2..12): the checks make the
        accounts missing up to that number first, each registered and logged in as every account
        of the checks is, so an app cannot tell by an account's ordinal, or by how many there are,
        whether the judge is using it (hostile trial N1: isolation that broke from the 6th account
        on passed checks that used the 2nd)."""
        if not self.spec.auth:
            return None
        if "late" not in self._accounts:
            self.account("first")
            while len(self._registered) < self.crowd:
                filler = self.sign_up(self.new_name())
                self.call("GET", "/api/auth/me", filler)
            self._accounts["late"] = self.sign_up(self.new_name())
        return self._accounts["late"]

    def others(self) -> list[tuple[int, Account]]:
        """The accounts the isolation checks look through, with their ordinals: the second account
        and the late one."""
        found = [self.account("second"), self.late_account()]
        return [(self._registered.index(a.name) + 1, a) for a in found if a is not None]

    def accounts_made(self) -> int:
        return len(self._registered)

    def writer(self, entity: DataEntity) -> Account | None:
        """The account a data check of `entity` works as: an ordinary one (registered after the
        admin, with a new account's role) wherever the spec gives ordinary accounts the right —
        no `manage` on the entity or on a record it needs (its parent, its references) — so an
        app that refuses them fails (trial 2026-12-07e, F3: "Users can add recipes" was checked as
        the admin); else the first account, the admin."""
        if not self.spec.roles or _managed(self.spec, entity, set()):
            return self.account("first")
        return self.account("member")

    def credentials(self, name: str, password: str | None = None) -> dict[str, str]:
        login = f"{name}@example.com" if self.spec.login == "email" else name
        return {self.spec.login: login, "password": self.password if password is None else password}

    def form(self, path: str, data: dict[str, str], cookies: dict[str, str] | None = None,
             method: str = "POST") -> tuple[Answer, dict[str, str]]:
        """A browser's request to a page or form: form-encoded, the given cookies only (the
        client keeps none between calls); the answer and the cookies it set."""
        headers = self.headers("text/html", form=method == "POST")
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        try:
            resp = self.http.request(method, path, data=data if method == "POST" else None, headers=headers)
        except httpx.HTTPError as exc:
            line = f"{method} {path} (form) → no response ({type(exc).__name__})"
            self.seen.append(line)
            raise CheckFailed(line) from None
        finally:
            self.http.cookies.clear()
        where = f" Location: {resp.headers.get('location')}" if resp.headers.get("location") else ""
        line = f"{method} {path} (form) → {resp.status_code}{where} {_excerpt(resp.text)}".rstrip()
        self.seen.append(line)
        return Answer(resp.status_code, None, resp.text, line), dict(resp.cookies)

    def sign_up(self, name: str) -> Account:
        self.expect(self.call("POST", "/api/auth/register", body=self.credentials(name)), 200, 201,
                    what="register an account")
        self._registered.append(name)
        return self.log_in(name)

    def registered_names(self) -> list[str]:
        """The accounts the checks registered with the run's password, in order."""
        return list(self._registered)

    def sign_in_again(self, who: Account) -> Account:
        """A new token for an account whose old one stopped working (an app restarted that kept
        its sessions in memory); every check after this one uses it."""
        fresh = self.log_in(who.name)
        for label, known in self._accounts.items():
            if known is who:
                self._accounts[label] = fresh
        return fresh

    def keep_signed_in(self) -> None:
        """After a restart: every account whose token the app no longer takes logs in again (an
        app that kept its sessions in memory); the others keep theirs."""
        for who in list({id(a): a for a in self._accounts.values()}.values()):
            if self.call("GET", "/api/auth/me", who).status == 401:
                self.sign_in_again(who)

    def log_in(self, name: str) -> Account:
        got = self.expect(self.call("POST", "/api/auth/login", body=self.credentials(name)), 200,
                          what="log in")
        body = got.body if isinstance(got.body, dict) else {}
        token = body.get("token") or body.get("access_token")
        if not isinstance(token, str) or not token:
            raise CheckFailed(f"log in: no token in {got.line}")
        return Account(name, token)

    # ---- records --------------------------------------------------------------------------------

    def collection(self, entity: DataEntity) -> str:
        """/api/<plural>: the plural's words in lower case joined by "-" ("time entries" → time-entries;
        harness/constructs/collection_url.py)."""
        return "/api/" + collection_slug(entity.plural)

    def body_for(self, entity: DataEntity, who: Account | None, n: int | None = None,
                 **overrides: Any) -> dict[str, Any]:
        """Every field of the entity with a valid value; the parent and referenced records are the
        account's shared ones (made once): a check that needs its own passes them in `overrides`."""
        n = self.number() if n is None else n
        body: dict[str, Any] = {}
        if entity.parent:
            parent = self.spec.entity(entity.parent)
            key = parent_key_of(self.spec, entity)
            if parent is not None and key not in overrides:
                fresh = key in self._places(entity)
                body[key] = self.create(parent, who)["id"] if fresh else self.shared(parent, who)
        seen_kinds: dict[str, int] = {}
        roomy = bound_fields(self.spec, entity.ident)   # bounds of a limit: above any other check's value
        slot = self._slot(entity)
        spans = slot_fill(slot, n, overrides) if slot else {}
        for f in entity.fields:
            k = seen_kinds[kind_of(f)] = seen_kinds.get(kind_of(f), -1) + 1   # a later time/date is later
            if f.ident in overrides:
                continue
            if f.ident in spans:   # a booking's slot: its own, ending after it starts
                body[f.ident] = spans[f.ident]
                continue
            if f.ref:
                target = self.spec.entity(f.ref)
                # a capacity's place, or a unique reference (one record per referenced one): its own
                fresh = target is not None and (f.unique or f.ident in self._places(entity))
                body[f.ident] = (self.create(target, who)["id"] if fresh else
                                 self.shared(target, who) if target is not None else 1)
            elif f.ident in roomy:
                body[f.ident] = roomy_value(f, n)
            else:
                body[f.ident] = later(valid_value(f, n, self.phrases), kind_of(f), k)
        body.update(overrides)
        return body

    def _places(self, entity: DataEntity) -> tuple[str, ...]:
        """The columns of the entity's capacity place: a record made for another check gets a
        resource of its own there, so that the checks never fill a place between them."""
        cap = spec_capacity(self.spec, entity)
        if cap and cap.resource_column:
            return (cap.resource_column,)
        slot = self._slot(entity)   # a booking made for another check books a resource of its own
        return tuple(c for c in slot.same if c != slot.day)[:1] if slot else ()

    def _slot(self, entity: DataEntity) -> Slot | None:
        """The slot of an entity that has no_double_booking (None otherwise)."""
        booked = any(f.entity == entity.ident and f.kind == "no_double_booking" for f in self.spec.features)
        return slot_of(entity, parent_key_of(self.spec, entity)) if booked else None

    def shared(self, entity: DataEntity, who: Account | None) -> int:
        """The id of the account's shared record of `entity` (parents and references point at it)."""
        key = (entity.ident, who.name if who else "")
        if key not in self._pool:
            self._pool[key] = self.create(entity, who)["id"]
        return self._pool[key]

    def create(self, entity: DataEntity, who: Account | None, **overrides: Any) -> dict[str, Any]:
        body = self.body_for(entity, who, **overrides)
        got = self.expect(self.call("POST", self.collection(entity), who, body), 201, 200,
                          what=f"create a {entity.name}")
        if not isinstance(got.body, dict) or "id" not in got.body:
            raise CheckFailed(f"create a {entity.name}: no id in {got.line}")
        return {**body, **got.body}

    def listed(self, path: str, who: Account | None, params: dict | None = None) -> list[dict]:
        got = self.expect(self.call("GET", path, who, params=params), 200, what=f"list {path}")
        items = got.body.get("items") if isinstance(got.body, dict) else got.body
        if not isinstance(items, list):
            raise CheckFailed(f"list {path}: not a JSON list: {got.line}")
        return [i for i in items if isinstance(i, dict)]


def _excerpt(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    if flat.lstrip().startswith("<"):
        return f"HTML ({len(text)} chars)"
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _managed(spec: AppSpec, entity: DataEntity, seen: set[str]) -> bool:
    """Whether `entity`, or a record it needs (parent, references, theirs), has a managing role."""
    if entity.name in seen:
        return False
    seen.add(entity.name)
    needed = [entity.parent] + [f.ref for f in entity.fields if f.ref]
    return bool(entity.manage) or any(_managed(spec, spec.entity(n), seen) for n in needed
                                      if n and spec.entity(n) is not None)
