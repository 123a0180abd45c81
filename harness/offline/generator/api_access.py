"""The access-policy parts of src/api_<entity>.py (roles, shared, manage, assigned records):
the checks each handler runs, the `_may` helper and the `assigned_to` model fields. Pure: app
and entity in, source text out; empty for apps without an access policy."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import fill, lit
from harness.offline.generator.templates_dir import template

_MAY = template("api_py/access.tmpl")


def owner_expr(app: AppModel) -> str:
    """What the handlers scope rows by: the user's id, or with a policy the user as a Viewer."""
    if not app.auth:
        return "None"
    return "as_viewer(db, user)" if app.access else 'user["id"]'


def access_import(app: AppModel, e: Entity) -> str:
    if not app.access:
        return ""
    names = ["as_viewer"] + (["check_user"] if e.assigned else []) + (["require_role"] if e.manage else [])
    return f"from src.people import {', '.join(names)}"


def may_helper(app: AppModel, e: Entity) -> str:
    return fill(_MAY, name=e.name.replace('"', "'")).strip("\n") if app.access else ""


def handler_checks(app: AppModel, e: Entity) -> dict[str, str]:
    """The access lines of create, update, delete and complete (empty without a policy)."""
    owner = owner_expr(app)
    assigned = 'check_user(db, values.get("assigned_to"))' if e.assigned else ""
    if not app.access:
        return {"create_access": "", "update_access": "", "delete_access": "",
                "complete_check": f"_found(TABLE.get(db, item_id, {owner}))"}
    create = ([f"require_role(as_viewer(db, user), {lit(e.manage)})"] if e.manage else []) + [assigned]
    return {"create_access": "\n".join(filter(None, create)),
            "update_access": "\n".join(filter(None, ['_may(db, item_id, user, "update")', assigned])),
            "delete_access": '_may(db, item_id, user, "delete")',
            "complete_check": '_may(db, item_id, user, "update")'}


def assigned_fields(e: Entity) -> tuple[list[str], list[str], list[str]]:
    """(create, update, out) model lines of `assigned_to`."""
    if not e.assigned:
        return [], [], []
    return (["    assigned_to: RecordId | None = None"], ["    assigned_to: RecordId | None = None"],
            ["    assigned_to: int | None = None"])


def access_doc(app: AppModel, e: Entity) -> str:
    """The module docstring's sentence on who sees and changes the records."""
    if not app.access:
        return ""
    who = ("Anyone reads the records, without an account (list, read, search); a signed-in user adds one; "
           if e.public else "Every signed-in user sees every record; " if e.shared else
           "A user sees their own records" + (" and those assigned to them; " if e.assigned else "; "))
    write = (f"only the {e.manage} role (and the admin role) adds, changes and deletes them"
             if e.manage else "the one who added a record changes and deletes it")
    admin = f" The {app.roles[0]} role sees and manages every record." if app.roles else ""
    admin += f" The {e.view} role sees every record and changes only its own." if e.view else ""
    assignee = " An assignee may update the record but not delete it." if e.assigned else ""
    return who + write + " (403 otherwise)." + assignee + admin
