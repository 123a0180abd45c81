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
