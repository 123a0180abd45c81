"""Black-box checks of the access and account constructs (roles, password change, shared, manage,
view, assigned_to), of many-to-many links and of period summaries (docs/spec-language.md)."""

from __future__ import annotations

from harness.acceptance.client import Account, Api, CheckFailed
from harness.acceptance.convention import PROBE_USER
from harness.models.spec import AppSpec, DataEntity, Feature


def _me(api: Api, who: Account) -> dict:
    got = api.expect(api.call("GET", "/api/auth/users/me", who), 200, what="my account and role")
    return got.body if isinstance(got.body, dict) else {}


def _admin(api: Api, spec: AppSpec) -> Account:
    """The account that may write everything: with roles, the first one (which must be admin)."""
    first = api.account("first")
    if spec.roles and _me(api, first).get("role") != spec.roles[0]:
        raise CheckFailed(f"the first account registered is not {spec.roles[0]!r}: {_me(api, first)}")
    return first


def roles_work(api: Api, spec: AppSpec) -> str:
    first, fresh = _admin(api, spec), api.sign_up(api.new_name())
    mine = _me(api, fresh)
    if mine.get("role") != spec.roles[-1]:
        raise CheckFailed(f"a new account's role is {mine.get('role')!r}, not {spec.roles[-1]!r}")
    admin_id = _me(api, first).get("id")
    api.expect(api.call("PUT", f"/api/auth/users/{admin_id}/role", fresh, {"role": spec.roles[-1]}), 403,
               what="a non-admin sets a role")
    people = api.listed("/api/auth/users", fresh)
    if {p.get("id") for p in people} < {admin_id, mine.get("id")}:
        raise CheckFailed("GET /api/auth/users does not list both accounts")
    return f"first account {spec.roles[0]!r}, a new one {spec.roles[-1]!r}; a non-admin setting a role → 403"


def password_changes(api: Api, spec: AppSpec) -> str:
    name = api.new_name()
    who = api.sign_up(name)
    new = api.phrases.password()
    api.expect(api.call("POST", "/api/auth/password", who, {"current_password": api.phrases.password(),
                                                              "new_password": new}), 403, what="wrong current password")
    old = api.credentials(name)["password"]
    api.expect(api.call("POST", "/api/auth/password", who, {"current_password": old, "new_password": new}),
               204, 200, what="change the password")
    api.expect(api.call("POST", "/api/auth/login", body=api.credentials(name)), 401, what="log in with the old password")
    api.expect(api.call("POST", "/api/auth/login", body=api.credentials(name, new)), 200, what="log in with the new one")
    return "wrong current → 403; changed → 204; the old password → 401, the new → 200"


def shared_seen(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    owner, other = _admin(api, spec), api.sign_up(api.new_name())
    rec = api.create(entity, owner)
    if rec["id"] not in [i.get("id") for i in api.listed(api.collection(entity), other)]:
        raise CheckFailed(f"another account does not list the shared {entity.name} {rec['id']}")
    api.expect(api.call("GET", f"{api.collection(entity)}/{rec['id']}", other), 200, what="read a shared record")
    return f"another account lists and reads {entity.name} {rec['id']}"


def managed(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    admin, member = _admin(api, spec), api.sign_up(api.new_name())
    if _me(api, member).get("role") == entity.manage:
        return f"new accounts have the {entity.manage} role: nothing to refuse"
    body = api.body_for(entity, admin)
    api.expect(api.call("POST", api.collection(entity), member, body), 403, what=f"a {spec.roles[-1]} adds a {entity.name}")
    rec = api.expect(api.call("POST", api.collection(entity), admin, body), 201, 200,
                     what=f"the admin adds a {entity.name}").body
    url = f"{api.collection(entity)}/{rec['id']}"   # nor changes or deletes one (not assigned to them)
    plain = {f.ident: body[f.ident] for f in entity.fields if not f.ref and not f.unique and f.ident in body}
    if plain:   # the record's own values, no reference the member could not name anyway
        api.expect(api.call("PUT", url, member, plain), 403, 404, what=f"a {spec.roles[-1]} changes the admin's {entity.name}")
    api.expect(api.call("DELETE", url, member), 403, 404, what=f"a {spec.roles[-1]} deletes the admin's {entity.name}")
    api.expect(api.call("GET", url, admin), 200, what=f"the {entity.name} is still there")
    return f"a {spec.roles[-1]} adding, changing or deleting a {entity.name} → refused; the admin → 201"


def viewed(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    """The `view` role reads every record of the entity, another role does not; it changes none."""
    admin, viewer = _admin(api, spec), api.sign_up(api.new_name())
    rec = api.create(entity, admin)
    url = f"{api.collection(entity)}/{rec['id']}"
    me = _me(api, viewer)
    api.expect(api.call("GET", url, viewer), 404, 403, what=f"a {me.get('role')} reads another's {entity.name}")
    api.expect(api.call("PUT", f"/api/auth/users/{me.get('id')}/role", admin, {"role": entity.view}), 200,
               what=f"the admin gives an account the {entity.view} role")
    api.expect(api.call("GET", url, viewer), 200, what=f"the {entity.view} reads another's {entity.name}")
    if rec["id"] not in [i.get("id") for i in api.listed(api.collection(entity), viewer)]:
        raise CheckFailed(f"the {entity.view} role does not list {entity.name} {rec['id']}")
    api.expect(api.call("DELETE", url, viewer), 403, what=f"the {entity.view} deletes another's {entity.name}")
    api.expect(api.call("GET", url, admin), 200, what=f"the {entity.name} is still there")
    return (f"a {me.get('role')} cannot read {entity.name} {rec['id']}; given the {entity.view} role it lists "
            "and reads it; its delete → 403")


def assigned_seen(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    owner, assignee = _admin(api, spec), api.sign_up(api.new_name())
    assignee_id = api.expect(api.call("GET", "/api/auth/me", assignee), 200, what="who am I").body.get("id")
    rec = api.create(entity, owner, assigned_to=assignee_id)
    got = api.expect(api.call("GET", f"{api.collection(entity)}/{rec['id']}", assignee), 200, what="the assignee reads it")
    if not isinstance(got.body, dict) or got.body.get("assigned_to") != assignee_id:
        raise CheckFailed(f"the {entity.name} reads assigned_to {got.line}, not {assignee_id}")
    return f"{entity.name} {rec['id']} assigned to account {assignee_id}, who reads it"


def linked(api: Api, spec: AppSpec, entity: DataEntity, other: DataEntity) -> str:
    who = api.account("first")
    rec, mate = api.create(entity, who), api.create(other, who)
    base = f"{api.collection(entity)}/{rec['id']}/{api.collection(other).rsplit('/', 1)[-1]}"
    api.expect(api.call("PUT", f"{base}/{mate['id']}", who), 204, 200, 201, what="link")
    if mate["id"] not in [i.get("id") for i in api.listed(base, who)]:
        raise CheckFailed(f"GET {base} does not list the linked {other.name}")
    found = [i.get("id") for i in api.listed(api.collection(entity), who, {other.ident: mate["id"]})]
    if found != [rec["id"]]:
        raise CheckFailed(f"?{other.ident}={mate['id']} lists {found}, not [{rec['id']}]")
    return f"linked {entity.name} {rec['id']} and {other.name} {mate['id']}; listed both ways"


def period_summary(api: Api, entity: DataEntity, feature: Feature) -> str:
    who = api.account("first")
    api.create(entity, who)
    path = f"{api.collection(entity)}/summary"
    rows = api.listed(path, who, {"period": "month"})
    if sum(r.get("count", 0) for r in rows if isinstance(r, dict)) < 1:
        raise CheckFailed(f"GET {path}?period=month counts nothing after a record was added: {rows}")
    api.expect(api.call("GET", path, who, params={"period": "decade"}), 422, what="an unknown period")
    return f"{len(rows)} month(s) counted; an unknown period → 422"


def first_is_admin(api: Api, spec: AppSpec) -> str:
    """The app's first account (the runtime probe's, registered before this leg) holds the admin
    role; it gives the checks' own first account that role, so the checks that add records of a
    managed entity run as an admin (and their second account is a plain member)."""
    first = api.account("first")
    mine = _me(api, first)
    if mine.get("role") == spec.roles[0]:
        return f"the checks' first account is the first registered: {spec.roles[0]!r}"
    got = api.expect(api.call("POST", "/api/auth/login", body=api.credentials(PROBE_USER["username"],
                                                                                 PROBE_USER["password"])),
                     200, what="log in as the first account registered (the runtime probe's)")
    probe = Account(PROBE_USER["username"], (got.body or {}).get("token", ""))
    if _me(api, probe).get("role") != spec.roles[0]:
        raise CheckFailed(f"the first account registered is not {spec.roles[0]!r}: {_me(api, probe)}")
    api.expect(api.call("PUT", f"/api/auth/users/{mine.get('id')}/role", probe, {"role": spec.roles[0]}), 200,
               what="the admin gives another account the admin role")
    return f"the first account registered is {spec.roles[0]!r} and made the checks' account {spec.roles[0]!r}"
