"""Tests for the assembled application: health, index page, startup, OpenAPI."""

import sqlite3
from contextlib import closing

import pytest
from fastapi.testclient import TestClient


@pytest.mark.req('REQ-004')
def test_health_endpoints_answer_ok(app_client):
    for path in ("/health", "/api/health"):
        response = app_client.get(path)
        assert response.status_code == 200
        assert response.json() == {"status": "ok"}


@pytest.mark.req('REQ-004')
def test_index_is_an_html_page(app_client):
    response = app_client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "<h1>" in response.text and "</html>" in response.text


@pytest.mark.req('REQ-004')
def test_startup_creates_the_database(tmp_path, monkeypatch):
    fresh = tmp_path / "fresh.db"
    monkeypatch.setenv("APP_DB_PATH", str(fresh))
    from src import models
    from src.main import app

    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
    with closing(sqlite3.connect(fresh)) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(models.TABLES) <= names


@pytest.mark.req('REQ-004')
def test_openapi_lists_every_api_route(app_client):
    response = app_client.get("/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ['/health', '/api/health', '/api/todos', '/api/todos/{item_id}', '/api/todos/{item_id}/complete']:
        assert path in paths, path


@pytest.mark.req('REQ-004')
def test_openapi_documents_the_error_responses(app_client):
    paths = app_client.get("/openapi.json").json()["paths"]
    for path, methods in {'/api/todos': {'post': ['404', '409', '422'], 'get': ['404', '409', '422']}, '/api/todos/{item_id}': {'get': ['404', '409', '422'], 'put': ['404', '409', '422'], 'delete': ['404', '409', '422']}}.items():
        for method, codes in methods.items():
            documented = set(paths[path][method]["responses"])
            assert set(codes) <= documented, (method, path, documented)


@pytest.mark.req('REQ-004')
def test_unknown_route_is_404(app_client):
    assert app_client.get("/no-such-page").status_code == 404


def _body_route(app_client) -> str:
    """A JSON POST route without path parameters: it reads the request body."""
    paths = app_client.get("/openapi.json").json()["paths"]
    return next(path for path, ops in paths.items() if "post" in ops and "{" not in path)


@pytest.mark.req('REQ-004')
def test_oversized_bodies_are_refused_with_413(app_client):
    target = _body_route(app_client)
    declared = app_client.post(target, content=b"x" * (1024 * 1024 + 1), headers={"content-type": "application/json"})
    assert declared.status_code == 413

    def chunks():
        for _ in range(11):
            yield b"x" * 100_000

    streamed = app_client.post(target, content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413


@pytest.mark.req('REQ-004')
def test_cross_site_posts_are_refused_with_403(app_client):
    target = _body_route(app_client)
    for headers in ({"Origin": "https://evil.example"}, {"Referer": "https://evil.example/form"}, {"Origin": "null"}):
        assert app_client.post(target, json={}, headers=headers).status_code == 403, headers
    same_site = app_client.post(target, json={}, headers={"Origin": str(app_client.base_url).rstrip("/")})
    assert same_site.status_code != 403
