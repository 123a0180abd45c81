"""Acceptance tests: each requirement of the spec, end to end through the whole app."""

import pytest

MISSING = 2**40


@pytest.fixture
def client(app_client):
    return app_client


@pytest.fixture
def headers(client):
    return {}


def create_todo(client, headers, **fields):
    body = {**{'title': 'Sample text'}, **fields}
    response = client.post('/api/todos', json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()["id"]


@pytest.mark.req('REQ-001')
def test_req_001_create(client, headers):
    body = dict({'title': 'Sample text'})
    response = client.post('/api/todos', json=body, headers=headers)
    assert response.status_code == 201, response.text
    created = response.json()
    assert {key: created[key] for key in body} == body
    assert client.get(f"/api/todos/{created['id']}", headers=headers).json() == created
    listed = client.get('/api/todos', headers=headers).json()
    assert created["id"] in [item["id"] for item in listed]


@pytest.mark.req('REQ-002')
def test_req_002_list(client, headers):
    ids = [create_todo(client, headers) for _ in range(3)]
    response = client.get('/api/todos', headers=headers)
    assert response.status_code == 200
    assert [item["id"] for item in response.json()] == ids


@pytest.mark.req('REQ-003')
def test_req_003_complete(client, headers):
    item_id = create_todo(client, headers)
    assert client.get(f"/api/todos/{item_id}", headers=headers).json()["status"] == "open"
    response = client.post(f"/api/todos/{item_id}/complete", headers=headers)
    assert response.status_code == 200 and response.json()["status"] == "done"
    assert client.get(f"/api/todos/{item_id}", headers=headers).json()["status"] == "done"
    assert client.post(f"/api/todos/{MISSING}/complete", headers=headers).status_code == 404


@pytest.mark.req('REQ-004')
def test_req_004_health(client):
    for path in ("/health", "/api/health"):
        response = client.get(path)
        assert response.status_code == 200 and response.json() == {"status": "ok"}
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
