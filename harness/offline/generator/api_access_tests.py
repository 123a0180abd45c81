"""The access tests of tests/test_api_<entity>.py: public and shared records, the managing role, the role
that sees every record, assignment and the admin role, each through the entity's real router and the people router."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import fill, lit, marks
from harness.offline.generator.naming import py_ident
from harness.offline.generator.templates_dir import template
from harness.offline.generator.testkit import lineage_idents

_SHARED = template("api_access_tests/shared.tmpl")
_MANAGE = template("api_access_tests/manage.tmpl")
_ASSIGNED = template("api_access_tests/assigned.tmpl")
_ADMIN = template("api_access_tests/admin.tmpl")
_VIEW = template("api_access_tests/view.tmpl")
_PUBLIC = template("api_access_tests/public.tmpl")

# A `view` role changes its own records: it adds one and updates it (when it may add them at all).
_VIEWER_OWN = """
    own_id = create_{ident}(client, bob)
    assert client.put(f"{{URL}}/{{own_id}}", json=CHANGE, headers=bob).status_code == 200"""


def member_creates(app: AppModel, e: Entity) -> bool:
    """A member can make the record and everything it needs (no managed entity on the way)."""
    return not any(app.entity(i).manage for i in lineage_idents(app, e))


def access_tests(app: AppModel, e: Entity, fallback: tuple[str, ...]) -> list[str]:
    if not app.access:
        return []
    req = marks(e.req_ids("access") or fallback)
    out = []
    if e.public:
        out.append(fill(_PUBLIC, marks=req, ident=e.ident))
    elif e.shared:
        out.append(fill(_SHARED, marks=req, ident=e.ident))
    if e.manage:
        out.append(fill(_MANAGE, marks=req, ident=e.ident, role=lit(e.manage), role_ident=py_ident(e.manage)))
    if e.view:
        own = _VIEWER_OWN.format(ident=e.ident) if not e.manage and member_creates(app, e) else ""
        out.append(fill(_VIEW, marks=req, ident=e.ident, role=lit(e.view), role_ident=py_ident(e.view),
                        own_checks=own))
    if e.assigned:
        hidden = 'assert client.get(f"{URL}/{item_id}", headers=bob).status_code == 404'
        out.append(fill(_ASSIGNED, marks=req, ident=e.ident, unassigned_check="" if e.shared else hidden,
                        carol_check="" if e.shared else hidden.replace("bob)", "carol)")))
    if app.roles and not e.shared and member_creates(app, e):
        out.append(fill(_ADMIN, marks=marks(app.ids("account") or e.req_ids() or fallback), ident=e.ident,
                        admin_ident=py_ident(app.roles[0])))
    return out

