"""Builds the project scaffolding: requirements.txt, pytest.ini, src/__init__.py, tests/conftest.py."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel
from harness.offline.generator.codegen import doc, fill, lit
from harness.offline.generator.templates_dir import template

REQUIREMENTS_TXT = "fastapi>=0.110\nuvicorn>=0.27\nhttpx>=0.27\npytest>=8\n"

# Newer Starlette asks for httpx2 in its TestClient; the app pins the widely available httpx.
PYTEST_INI = """[pytest]
markers =
    req(id): requirement this test proves
pythonpath = .
testpaths = tests
filterwarnings =
    ignore:Using .httpx. with .starlette.testclient. is deprecated
"""

_INIT = template("setup_files/init.tmpl")

_CONFTEST = template("setup_files/conftest.tmpl")

_LOGIN = template("setup_files/login.tmpl")

TEST_PASSWORD = "correct-horse-battery"


def init_py(app: AppModel) -> str:
    return fill(_INIT, title=doc(app.title))


def conftest_py(app: AppModel) -> str:
    text = fill(_CONFTEST)
    return text + "\n\n" + fill(_LOGIN, password=lit(TEST_PASSWORD)) if app.auth else text
