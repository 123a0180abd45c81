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
    biggest = max((e.attachment_max_kb * 1024 for e in app.entities if e.attachment_types), default=0)
    if biggest <= 1024 * 1024:
        limit = ('def body_limit(scope) -> int:\n    """The largest request body a route takes."""\n'
                 "    return MAX_BODY_BYTES")
    else:
        limit = (f"UPLOAD_BODY_BYTES = {biggest}  # the largest attachment (src/attachments.py checks each one's)"
                 '\n\n\ndef body_limit(scope) -> int:\n    """The largest request body a route takes: an '
                 'attachment upload may be larger."""\n    if scope["method"] == "POST" and '
                 'scope["path"].endswith("/attachments"):\n        return UPLOAD_BODY_BYTES\n    return MAX_BODY_BYTES')
    return fill(_INIT, title=doc(app.title), upload_limit=limit)


def conftest_py(app: AppModel) -> str:
    text = fill(_CONFTEST)
    return text + "\n\n" + fill(_LOGIN, password=lit(TEST_PASSWORD)) if app.auth else text
