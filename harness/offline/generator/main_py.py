"""Builds src/main.py (the FastAPI app) and tests/test_health.py."""

from __future__ import annotations

from harness.offline.generator.api_py import children_url, collection_url
from harness.offline.generator.appmodel import AppModel
from harness.offline.generator.codegen import doc, fill, lit, marks, module

_MAIN = '''
"""@@title_doc@@: the FastAPI application `app`.

Run it with `uvicorn src.main:app`. The SQLite file is APP_DB_PATH (default "app.db");
the tables are created at startup. GET /health and GET /api/health answer {"status": "ok"};
GET / is the HTML index page.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from src import @@modules@@


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    models.init_db()
    yield


app = install_error_handlers(FastAPI(title=@@title@@, lifespan=lifespan))
@@includes@@


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/api/health")
def api_health() -> dict[str, str]:
    return {"status": "ok"}
'''

_TESTS = '''
"""Tests for the assembled application: health, index page, startup, OpenAPI."""

import sqlite3
from contextlib import closing

import pytest
from fastapi.testclient import TestClient


@@marks@@def test_health_endpoints_answer_ok(app_client):
    for path in ("/health", "/api/health"):
        response = app_client.get(path)
        assert response.status_code == 200
        assert response.json() == {"status": "ok"}


@@marks@@def test_index_is_an_html_page(app_client):
    response = app_client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "<h1>" in response.text and "</html>" in response.text


@@marks@@def test_startup_creates_the_database(tmp_path, monkeypatch):
    fresh = tmp_path / "fresh.db"
    monkeypatch.setenv("APP_DB_PATH", str(fresh))
    from src import models
    from src.main import app

    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
    with closing(sqlite3.connect(fresh)) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(models.TABLES) <= names


@@marks@@def test_openapi_lists_every_api_route(app_client):
    response = app_client.get("/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in @@paths@@:
        assert path in paths, path


@@marks@@def test_openapi_documents_the_error_responses(app_client):
    paths = app_client.get("/openapi.json").json()["paths"]
    for path, methods in @@error_paths@@.items():
        for method, codes in methods.items():
            documented = set(paths[path][method]["responses"])
            assert set(codes) <= documented, (method, path, documented)


@@marks@@def test_unknown_route_is_404(app_client):
    assert app_client.get("/no-such-page").status_code == 404
'''


def _modules(app: AppModel) -> list[str]:
    mods = (["auth"] if app.auth else []) + [f"api_{e.ident}" for e in app.entities]
    return mods + (["dashboard"] if app.has_dashboard else []) + ["pages"]


def main_py(app: AppModel) -> str:
    mods = _modules(app)
    return module(fill(
        _MAIN, title_doc=doc(app.title), title=lit(app.title),
        modules=", ".join(sorted([*mods, "install_error_handlers", "models"])),
        includes="\n".join(f"app.include_router({m}.router)" for m in mods)))


def api_paths(app: AppModel) -> list[str]:
    """Every JSON API path the app must expose."""
    paths = ["/health", "/api/health"]
    if app.auth:
        paths += ["/api/auth/register", "/api/auth/login", "/api/auth/logout", "/api/auth/me"]
    for e in app.entities:
        paths += [collection_url(e), collection_url(e) + "/{item_id}"]
        paths += [collection_url(e) + "/{item_id}/complete"] if e.has_status and not e.workflow else []
        paths += [collection_url(e) + "/export.csv"] if e.has("csv_export") else []
        paths += [collection_url(e) + "/totals"] if e.has("aggregate") else []
        paths += [collection_url(e) + "/counts"] if e.has("status_counts") else []
        paths += [children_url(app, e)] if e.parent else []
    return paths + (["/api/dashboard"] if app.has_dashboard else [])


def error_paths(app: AppModel) -> dict[str, dict[str, list[str]]]:
    """The error codes each route must document: 404/409/422 on every entity route, 401 with
    accounts, 429 on login."""
    codes = ["404", "409", "422"] + (["401"] if app.auth else [])
    out: dict[str, dict[str, list[str]]] = {}
    for e in app.entities:
        out[collection_url(e)] = {"post": codes, "get": codes}
        out[collection_url(e) + "/{item_id}"] = {"get": codes, "put": codes, "delete": codes}
    if app.auth:
        out["/api/auth/login"] = {"post": ["401", "422", "429"]}
        out["/api/auth/register"] = {"post": ["409", "422"]}
    return out


def test_health_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    return module(fill(_TESTS, marks=marks(req_ids), paths=lit(api_paths(app)),
                       error_paths=lit(error_paths(app))))

