"""The account-feature files: src/people.py (roles, the Viewer, the people directory) when the app
has an access policy, src/account.py (password change) when asked for, and their tests."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel
from harness.offline.generator.codegen import fill, lit, marks, module
from harness.offline.generator.setup_files import TEST_PASSWORD
from harness.offline.generator.templates_dir import template

_PEOPLE_TESTS = template("account_py/people_tests.tmpl")
_ROLE_TESTS = template("account_py/role_tests.tmpl")
_ACCOUNT_TESTS = template("account_py/account_tests.tmpl")


def account_files(app: AppModel) -> list[str]:
    """The files of the "account" build unit (empty: no such unit)."""
    files = (["src/people.py"] if app.access else []) + (["src/account.py"] if app.change_password else [])
    return files + [f.replace("src/", "tests/test_") for f in files]


def test_people_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    chunks = [fill(_PEOPLE_TESTS, marks=marks(req_ids), password=lit(TEST_PASSWORD))]
    if app.roles:
        chunks.append(fill(_ROLE_TESTS, marks=marks(req_ids), admin=lit(app.roles[0]),
                           member=lit(app.roles[-1])))
    return module(*chunks)


def test_account_py(req_ids: tuple[str, ...]) -> str:
    return module(fill(_ACCOUNT_TESTS, marks=marks(req_ids), password=lit(TEST_PASSWORD)))
