"""Builds the project scaffolding: requirements.txt, pytest.ini, src/__init__.py, tests/conftest.py."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel
from harness.offline.generator.codegen import doc, fill, lit

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

_INIT = '''
"""The generated application package: @@title@@.

install_error_handlers(app) renders request-validation errors as a plain 422 body that never echoes
the raw input: FastAPI's default handler fails with a 500 when the input holds NaN or a lone
surrogate. src.main and the test apps both install it.
"""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


def _text(value: object) -> str:
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    detail = [
        {
            "loc": [_text(part) for part in error.get("loc", ())],
            "msg": _text(error.get("msg", "")),
            "type": _text(error.get("type", "")),
        }
        for error in exc.errors()
    ]
    return JSONResponse(status_code=422, content={"detail": detail})


def install_error_handlers(app: FastAPI) -> FastAPI:
    """Register the safe 422 handler on `app` and return it."""
    app.add_exception_handler(RequestValidationError, _validation_error)
    return app
'''

_CONFTEST = '''
"""Shared fixtures: a throw-away SQLite file per test and small apps built from routers.

APP_PASSWORD_HASH_ITERATIONS is lowered here only to keep the tests fast; the app's default
password-hash cost is high.
"""

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from src import install_error_handlers


@pytest.fixture
def db_path(tmp_path, monkeypatch):
    """A fresh database file (APP_DB_PATH) with every table created."""
    path = tmp_path / "app.db"
    monkeypatch.setenv("APP_DB_PATH", str(path))
    monkeypatch.setenv("APP_PASSWORD_HASH_ITERATIONS", "1000")
    from src import models

    models.init_db()
    return path


@pytest.fixture
def make_client(db_path):
    """make_client(*routers) -> a TestClient for a small app made of only those routers."""
    clients = []

    def make(*routers):
        app = install_error_handlers(FastAPI())
        for router in routers:
            app.include_router(router)
        client = TestClient(app)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def app_client(db_path):
    """The whole application (src.main.app), lifespan included, on the temporary database."""
    from src.main import app

    with TestClient(app) as client:
        yield client
'''

_LOGIN = '''
@pytest.fixture
def login():
    """login(client, username) -> Authorization headers of a freshly registered user."""

    def do(client, username="alice", password=@@password@@):
        credentials = {"username": username, "password": password}
        response = client.post("/api/auth/register", json=credentials)
        assert response.status_code == 201, response.text
        response = client.post("/api/auth/login", json=credentials)
        assert response.status_code == 200, response.text
        return {"Authorization": f"Bearer {response.json()['token']}"}

    return do
'''

TEST_PASSWORD = "correct-horse-battery"


def init_py(app: AppModel) -> str:
    return fill(_INIT, title=doc(app.title))


def conftest_py(app: AppModel) -> str:
    text = fill(_CONFTEST)
    return text + "\n\n" + fill(_LOGIN, password=lit(TEST_PASSWORD)) if app.auth else text
