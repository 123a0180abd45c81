"""src/auth.py (accounts, password hashing, bearer sessions, login throttling: a skeleton file)
and its tests, tests/test_auth.py."""

from __future__ import annotations

from harness.offline.generator.codegen import fill, lit, marks, module
from harness.offline.generator.setup_files import TEST_PASSWORD
from harness.offline.generator.skeleton_files import skeleton
from harness.offline.generator.templates_dir import template

_TESTS = template("auth_py/tests.tmpl")


def auth_py() -> str:
    """src/auth.py: the skeleton file, verbatim."""
    return skeleton("src/auth.py")


def test_auth_py(req_ids: tuple[str, ...]) -> str:
    """tests/test_auth.py with every test marked with the auth requirements."""
    return module(fill(_TESTS, password=lit(TEST_PASSWORD), marks=marks(req_ids)))
