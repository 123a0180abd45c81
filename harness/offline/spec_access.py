"""The access part of a spec file: `[auth]` (accounts, roles, password change) and the entity keys
`shared`, `manage`, `view`, `assigned_to` and `read`. Every error is one line naming the file, line and key.

    [auth]                          # or `auth = true` (accounts, every record private)
    login = "email"                 # or "username" (the default)
    roles = ["admin", "member"]     # the first is the admin role, the last is a new account's
    change_password = true          # POST /api/auth/password

    [[entities]]
    name = "film"
    shared = true                   # every signed-in user sees every film
    manage = "admin"                # only admins add, change and delete films
    view = "accounts"               # that role reads every film too, and changes only its own
    assigned_to = "user"            # a record names a user who then sees and updates it
    read = "public"                 # anyone reads films without an account; adding needs one,
                                    # changing and deleting is the adder's (and admin's, manager's)
"""

from __future__ import annotations

import re
from typing import Any

from harness.models.spec import DataEntity

AUTH_KEYS = {"login", "roles", "change_password"}
ENTITY_KEYS = {"shared", "manage", "view", "assigned_to", "read"}
_ROLE = re.compile(r"[a-z][a-z0-9_]{0,29}")


def read_auth(reader: Any, data: dict) -> dict[str, Any]:
    """{auth, login, roles, change_password} from `auth = true|false` or an `[auth]` table
    (a top-level `login` key still works beside either)."""
    raw = data.get("auth")
    if isinstance(raw, dict):
        reader.check_keys(raw, AUTH_KEYS, "auth", None)
        if "login" in data:
            reader.fail("login", "give login once: inside [auth] or at the top, not both", "login")
        table, auth = raw, True
    else:
        table, auth = data, bool(reader.typed(data, "auth", bool, "", None))
    login = reader.typed(table, "login", str, "auth" if table is raw else "", None) or "username"
    if login not in ("username", "email"):
        reader.fail("login", 'must be "username" or "email"', "login", None, login)
    roles = [str(r) for r in (reader.typed(table, "roles", list, "auth", None) or [])] if table is raw else []
    for role in roles:
        if not _ROLE.fullmatch(role):
            reader.fail("auth.roles", f"{role!r} is not a role name (lower-case letters, digits, _)",
                        "roles", None, role)
    if roles and (len(roles) < 2 or len(set(roles)) != len(roles)):
        reader.fail("auth.roles", "needs at least two different roles: the admin role first, "
                    "the role of a new account last", "roles")
    change = bool(reader.typed(table, "change_password", bool, "auth", None)) if table is raw else False
    return {"auth": auth, "login": login, "roles": roles, "change_password": change}


def read_entity_access(reader: Any, raw: dict, i: int, where: str) -> dict[str, Any]:
    """{shared, manage, view, assigned, read} of one [[entities]] table (checked against [auth] later)."""
    shared = bool(reader.typed(raw, "shared", bool, where, i))
    read = reader.typed(raw, "read", str, where, i)
    if read is not None and read != "public":
        reader.fail(f"{where}.read", 'must be "public" (anyone reads the records without an account); '
                    "leave it out for records private to their creator, or write shared = true for "
                    "records every signed-in user sees", "read", i, read)
    manage = reader.typed(raw, "manage", str, where, i)
    view = reader.typed(raw, "view", str, where, i)
    assigned = reader.typed(raw, "assigned_to", str, where, i)
    if assigned is not None and assigned != "user":
        reader.fail(f"{where}.assigned_to", 'must be "user" (a record is assigned to an account)',
                    "assigned_to", i, assigned)
    # public records are shared ones a visitor reads too: every rule about shared records holds for them
    return {"shared": shared or read == "public", "manage": manage, "view": view, "assigned": assigned == "user",
            "read": read}


def check_access(reader: Any, entities: list[DataEntity], auth: dict[str, Any]) -> None:
    """Access keys need accounts; `manage` and `view` name one of the roles (`view` one that does
    not see every record already — not the admin role, the managing role, or of a shared entity —
    and neither a new account's, which would make the records everyone's); `read = "public"` needs
    accounts too (without them every record is open already), and no `view` role or `ownership`
    beside it (everyone reads the records)."""
    for i, e in enumerate(entities):
        where = f"entities[{i + 1}]"
        if e.read == "public":
            _check_public(reader, e, i, where, auth)
        for key, on in (("shared", e.shared), ("manage", e.manage), ("view", e.view), ("assigned_to", e.assigned)):
            if on and not auth["auth"]:
                reader.fail(f"{where}.{key}", "needs accounts: add auth = true or an [auth] table", key, i)
        for key, role in (("manage", e.manage), ("view", e.view)):
            if role is not None and role not in auth["roles"]:
                known = ", ".join(auth["roles"]) or "none: add [auth] roles = [...]"
                reader.fail(f"{where}.{key}", f"no role {role!r} (roles: {known})", key, i, role)
        if e.manage is not None and len(auth["roles"]) > 1 and e.manage == auth["roles"][-1]:
            reader.fail(f"{where}.manage", f"{e.manage!r} is every new account's role, so no account would be "
                        f"refused adding, changing or deleting a {e.name}: write shared = true (everyone sees "
                        f"them; the adder, the admin and a manage role change them), or name a role above "
                        f"{e.manage!r}", "manage", i, e.manage)
        if e.view is not None:
            sees_all = ("the admin role" if e.view == auth["roles"][0] else "the managing role" if e.view == e.manage
                        else "every signed-in user (shared = true)" if e.shared else "")
            if sees_all:
                reader.fail(f"{where}.view", f"{e.view!r} sees every {e.name} already as {sees_all}; "
                            "view names a role that otherwise sees only its own", "view", i, e.view)
            if e.view == auth["roles"][-1]:
                reader.fail(f"{where}.view", f"{e.view!r} is every new account's role, so everyone would see "
                            f"every {e.name}: write shared = true, or add a role between the admin and "
                            f"{e.view!r}", "view", i, e.view)


def _check_public(reader: Any, e: DataEntity, i: int, where: str, auth: dict[str, Any]) -> None:
    """`read = "public"`: with accounts (who adds and changes a record), without a `view` role or
    an `ownership` feature (each would say some account does not see every record)."""
    if not auth["auth"]:
        reader.fail(f"{where}.read", "needs accounts: without auth = true every record is open to anyone "
                    "already; add auth = true (or an [auth] table) so that adding and changing need an account",
                    "read", i, e.read)
    if e.view is not None:
        reader.fail(f"{where}.view", f"every visitor reads every {e.name} already (read = \"public\"); "
                    "drop view", "view", i, e.view)


def check_public_features(reader: Any, entities: list[tuple[DataEntity, list]]) -> None:
    """An `ownership` feature (each user sees only their own) cannot stand beside `read = "public"`."""
    for i, (e, features) in enumerate(entities):
        if e.read == "public" and any(f.kind == "ownership" for f in features):
            reader.fail(f"entities[{i + 1}].features", f"ownership (each user sees only their own {e.plural}) "
                        f"contradicts read = \"public\" (anyone reads every {e.name}): drop one", "features", i,
                        "ownership")


# The login's requirement when records are shared, managed by a role or assigned (not every record
# is private to its owner): (capability, entity, text, source).
ACCESS_AUTH_ITEM = ("auth", None, "Users register and log in; a record is private to its owner unless shared or assigned",
                    "auth = true")


def account_items(spec: Any) -> list[tuple[str, str | None, str, str]]:
    """Requirements (capability, entity, text, source) of the [auth] table's account features."""
    items = []
    if spec.roles:
        items.append(("account", None, f"Accounts have a role ({', '.join(spec.roles)}); the first account "
                      f"is {spec.roles[0]}, an {spec.roles[0]} sees and manages every record and "
                      "sets the roles", "auth.roles"))
    if spec.change_password:
        items.append(("account", None, "A signed-in user can change their password",
                      "auth.change_password"))
    return items


def access_items(e: DataEntity) -> list[tuple[str, str | None, str, str]]:
    """Requirements of one entity's access keys."""
    items = []
    if e.read == "public":
        items.append(("access", e.ident, f"Anyone reads {e.plural} without an account; only a signed-in "
                      "user adds one, and only the one who added a record (or a manager) changes or deletes it",
                      f"{e.name}.read"))
    elif e.shared:
        items.append(("access", e.ident, f"Every signed-in user sees all {e.plural}; only the one "
                      "who added a record (or a manager) changes it", f"{e.name}.shared"))
    if e.manage and e.assigned:   # the assignee updates a record too (docs/spec-language.md, assignment)
        items.append(("access", e.ident, f"Only the {e.manage} role adds and deletes {e.plural}; the "
                      f"{e.manage} role and the assignee change one", f"{e.name}.manage"))
    elif e.manage:
        items.append(("access", e.ident, f"Only the {e.manage} role adds, changes and deletes {e.plural}",
                      f"{e.name}.manage"))
    if e.view:
        items.append(("access", e.ident, f"The {e.view} role sees every {e.name} but changes only its own",
                      f"{e.name}.view"))
    if e.assigned:
        items.append(("access", e.ident, f"A {e.name} can be assigned to a user, who then sees and "
                      "updates it", f"{e.name}.assigned_to"))
    return items
