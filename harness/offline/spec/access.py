"""Who sees and changes what, as the request asks it (docs/spec-language.md: `[auth]` roles and
change_password; an entity's shared, manage, view and assigned_to), from what the access pattern rows
found (patterns/features.jsonl, pass "access": `Parsed.roles`, `Parsed.access`,
`Parsed.change_password`), applied to the built spec.

Roles exist only when one of them is said to run things: "only the librarian can add books" and
"managers see everything" name the admin role outright (rank "admin"); "admins can add, edit and
delete tools" does when the request also names the ordinary accounts' role (rank "manager": "The
company manager can add clients" alone restricts nobody). The first such role is the admin role;
the ordinary accounts' role ("members can only see them", "staff see their own"; rank "member") is
last, a `member` when the request names none. A member role alone ("members can see the film list")
makes no roles. Roles, a managing role, assignment or a password change need accounts, so they
turn login on; a shared record ("everyone can see the film list") is only a rule between accounts,
so without login it is every record's rule already and changes nothing — and so is a public one
("anyone can browse the recipes without logging in", "visitors can see the listings": `read =
"public"`, which with login lets visitors read while adding and changing need an account).
"""

from __future__ import annotations

from harness.models.spec import DataEntity
from harness.offline.spec.pass_helpers import forget_records

DEFAULT_ROLE, OTHER_DEFAULT, DEFAULT_ADMIN = "member", "user", "admin"


def account_roles(p) -> list[str]:
    """The spec's roles: the admin-ranked ones first, then the reading roles (rank "view":
    "managers can see all the jobs but change only their own"; the admin role is `admin` when no
    other is named), the ordinary accounts' role last."""
    members = [r for r, rank in p.roles if rank == "member"]
    viewers = [r for r, rank in p.roles if rank == "view"]
    leading = ("admin", "manager") if members or viewers else ("admin",)
    admins = list(dict.fromkeys(r for r, rank in p.roles if rank in leading))
    if not admins and viewers:
        admins = [DEFAULT_ADMIN]
    if not admins:
        return []
    viewers = list(dict.fromkeys(r for r in viewers if r not in admins))
    members = list(dict.fromkeys(r for r in members if r not in admins and r not in viewers))
    last = members[0] if members else next(r for r in (DEFAULT_ROLE, OTHER_DEFAULT) if r not in admins + viewers)
    return admins + viewers + [r for r in members if r != last] + [last]


def needs_accounts(p) -> bool:
    """Whether what the request asks about access needs login."""
    roles = account_roles(p)
    return bool(roles) or p.change_password \
        or any(asked.get("manage") in roles or asked.get("assigned") for asked in p.access.values())


def with_access(e: DataEntity, p, roles: list[str], auth: bool) -> DataEntity:
    """`e` with the access its record was asked to have (nothing without accounts)."""
    asked = p.access.get(e.name, {})
    if not auth or not asked:
        return e
    manage = asked.get("manage") if asked.get("manage") in roles else None
    view = asked.get("view")   # a reading role: one between the admin role and a new account's
    public = bool(asked.get("public"))   # anyone reads them, without an account
    view = view if view in roles[1:-1] and view != manage and not asked.get("shared") and not public else None
    return e.model_copy(update={"shared": bool(asked.get("shared")) or public, "manage": manage, "view": view,
                                "assigned": bool(asked.get("assigned")), "read": "public" if public else None})


def drop_role_entities(toks, mentions: dict[int, str], p) -> None:
    """A noun the access rows read as an account role wherever it was named ("Members have read-only
    access to the tools": `members` was the subject of "have") is no record type: it is dropped,
    unless it has fields or records of its own ("A volunteer app" keeps a volunteer record)."""
    for name in list(p.entities):
        if any(t.role == f"entity:{name}" for t in toks) or not any(n == name for n in mentions.values()) \
                or p.fields.get(name) or name in p.parents or name in p.parents.values():
            continue
        forget_records(p, [name], mentions)
