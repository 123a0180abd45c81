"""The acceptance tests (tests/test_acceptance.py, through src.main.app) of the access and account
requirements and of a workflow's stamped dates: the same checks as the unit tests, each made self-contained for one requirement."""

from __future__ import annotations

import textwrap

from harness.offline.generator.account_files import test_account_py, test_people_py
from harness.offline.generator.api_access_tests import access_tests
from harness.offline.generator.api_py import collection_url
from harness.offline.generator.api_tests import change, stamp_tests
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import lit
from harness.offline.generator.links import link_tests
from harness.offline.generator.samples import body
from harness.offline.generator.testkit import linked_body
from harness.models.spec import Requirement


def _bodies(module_text: str) -> list[str]:
    """The bodies (dedented, without decorators and `def` line) of a module's test functions."""
    out, current = [], None
    for line in module_text.split("\n"):
        if line.startswith("def test_"):
            current = []
            out.append(current)
        elif current is not None and (line.startswith("    ") or not line.strip()):
            current.append(line)
        else:
            current = None
    return [textwrap.dedent("\n".join(b)).strip("\n") for b in out]


def _prelude(e: Entity) -> str:
    full = linked_body(e, lit(body(e)), required_only=False)
    return "\n".join([f"URL = {lit(collection_url(e))}", f"CHANGE = {lit(change(e))}", "MISSING = 2**40",
                      f"full_body = lambda client, headers: {full}"])


def access_body(app: AppModel, req: Requirement) -> str | None:
    """The test body of an access or account requirement, or None when it is not one of ours."""
    source = req.acceptance
    if req.capability == "account" and source == "auth.roles" and app.roles:
        return "\n\n".join(_bodies(test_people_py(app, ()))[1:2])
    if req.capability == "account" and source == "auth.change_password" and app.change_password:
        text = test_account_py(())
        helper = ('def _login(client, password):\n    return client.post("/api/auth/login", '
                  'json={"username": "alice", "password": password})')
        consts = "\n".join(line for line in text.split("\n") if line.startswith(("PASSWORD =", "NEW_PASSWORD =")))
        return "\n".join([consts, helper, _bodies(text)[0]])
    if req.capability == "link" and req.entity:
        e = app.entity(req.entity)
        other = source.rsplit(" ", 1)[-1]
        tests = link_tests(app, e, (req.id,))
        found = [t for t in tests if f"_links_any_number_of_{app.entity(other).plural_ident}(" in t] \
            if other in e.many else []
        return _prelude(e) + "\n" + _bodies(found[0])[0] if found else None
    if req.capability == "workflow" and req.entity and ".stamp " in source:
        e = app.entity(req.entity)
        found = stamp_tests(e, (req.id,))
        column = source.rsplit(" ", 1)[-1]
        found = [t for t in found if f"def test_{column}_is_set_to_the_day_" in t]
        return _prelude(e) + "\n" + _bodies(found[0])[0] if found else None
    if req.capability != "access" or not req.entity:
        return None
    e = app.entity(req.entity)
    kind = source.rsplit(".", 1)[-1]
    wanted = {"shared": "every_user_sees_shared", "manage": "manages", "view": "_role_sees_every_",
              "assigned_to": "assigned_to_a_user", "read": "anyone_reads_"}.get(kind)
    for test in access_tests(app, e, (req.id,)):
        name = next(line for line in test.split("\n") if line.startswith("def "))
        if wanted and wanted in name:
            return _prelude(e) + "\n" + _bodies(test)[0]
    return None
