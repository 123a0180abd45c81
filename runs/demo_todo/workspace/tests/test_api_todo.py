"""API tests for todos (/api/todos), mounted on a small app with the routers they need."""

import csv
import io
import json

import pytest

from src import api_todo

URL = '/api/todos'
FULL = {'title': 'Sample text'}
MINIMAL = {'title': 'Sample text'}
CHANGE = {'title': 'Changed text'}
MISSING = 2**40  # a valid id that no row has


@pytest.fixture
def client(make_client):
    return make_client(api_todo.router)


@pytest.fixture
def headers(client):
    return {}


def full_body(client, headers):
    return dict(FULL)


def minimal_body(client, headers):
    """The required fields only, with the required references (not the parent) created."""
    return dict(MINIMAL)


def create_todo(client, headers, **fields):
    body = {**{'title': 'Sample text'}, **fields}
    response = client.post('/api/todos', json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()["id"]


@pytest.mark.req('REQ-001')
def test_create_returns_201_and_the_record(client, headers):
    body = full_body(client, headers)
    response = client.post(URL, json=body, headers=headers)
    assert response.status_code == 201, response.text
    created = response.json()
    assert isinstance(created["id"], int) and created["created_at"]
    assert {key: created[key] for key in body} == body
    assert created["status"] == 'open'
    assert client.get(f"{URL}/{created['id']}", headers=headers).json() == created


@pytest.mark.req('REQ-002')
def test_list_returns_created_records(client, headers):
    first = create_todo(client, headers)
    second = create_todo(client, headers)
    response = client.get(URL, headers=headers)
    assert response.status_code == 200
    assert [item["id"] for item in response.json()] == [first, second]
    page = client.get(URL, params={"limit": 1, "offset": 1}, headers=headers)
    assert [item["id"] for item in page.json()] == [first, second][1:]


@pytest.mark.req('REQ-002')
def test_list_refuses_an_unknown_query_parameter(client, headers):
    create_todo(client, headers)
    refused = client.get(URL, params={'colour': "red", "limit": 5}, headers=headers)
    assert refused.status_code == 422 and 'colour' in refused.text
    assert len(client.get(URL, params={"limit": 5}, headers=headers).json()) == 1


@pytest.mark.req('REQ-001')
@pytest.mark.req('REQ-002')
@pytest.mark.req('REQ-003')
def test_read_update_delete(client, headers):
    item_id = create_todo(client, headers)
    before = client.get(f"{URL}/{item_id}", headers=headers)
    assert before.status_code == 200
    response = client.put(f"{URL}/{item_id}", json=CHANGE, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json() == {**before.json(), **CHANGE}
    assert client.get(f"{URL}/{item_id}", headers=headers).json() == {**before.json(), **CHANGE}
    assert client.delete(f"{URL}/{item_id}", headers=headers).status_code == 204
    assert client.get(f"{URL}/{item_id}", headers=headers).status_code == 404
    assert client.delete(f"{URL}/{item_id}", headers=headers).status_code == 404
    assert client.put(f"{URL}/{item_id}", json=CHANGE, headers=headers).status_code == 404


@pytest.mark.req('REQ-001')
@pytest.mark.req('REQ-002')
@pytest.mark.req('REQ-003')
def test_invalid_input_is_422_and_unknown_ids_are_404(client, headers):
    body = full_body(client, headers)
    item_id = client.post(URL, json=body, headers=headers).json()["id"]
    raw = {**headers, "Content-Type": "application/json"}
    assert client.post(URL, content=b'{"broken": ', headers=raw).status_code == 422
    assert client.post(URL, content=b"", headers=raw).status_code == 422
    assert client.post(URL, json=[body], headers=headers).status_code == 422
    assert client.post(URL, json={**body, 'title': [1, 2]}, headers=headers).status_code == 422
    assert client.post(URL, json={k: v for k, v in body.items() if k != 'title'}, headers=headers).status_code == 422
    assert client.put(f"{URL}/{item_id}", json={'title': None}, headers=headers).status_code == 422
    assert client.post(URL, json={**body, 'title': "x" * 100_000}, headers=headers).status_code == 422
    assert client.post(URL, content=json.dumps({**body, 'title': chr(0xD800)}), headers=raw).status_code == 422
    assert client.post(URL, json={**body, 'title': 'x' * 201}, headers=headers).status_code == 422
    assert client.put(f"{URL}/{item_id}", json={'title': 'x' * 201}, headers=headers).status_code == 422
    assert client.post(URL, json={**body, 'title': 12345}, headers=headers).status_code == 422
    assert client.put(f"{URL}/{item_id}", json={'title': 12345}, headers=headers).status_code == 422
    assert client.post(URL, json={**body, "not_a_field": 1}, headers=headers).status_code == 422
    assert client.put(f"{URL}/{item_id}", json={"not_a_field": 1}, headers=headers).status_code == 422
    assert client.put(f"{URL}/{item_id}", json={"status": "maybe"}, headers=headers).status_code == 422
    assert client.get(f"{URL}/{MISSING}", headers=headers).status_code == 404
    assert client.put(f"{URL}/{MISSING}", json={}, headers=headers).status_code == 404
    assert client.delete(f"{URL}/{MISSING}", headers=headers).status_code == 404
    assert client.get(f"{URL}/not-a-number", headers=headers).status_code == 422
    assert client.get(f"{URL}/{10**30}", headers=headers).status_code == 422
    assert client.get(URL, params={"limit": 0}, headers=headers).status_code == 422
    assert client.get(f"{URL}/{item_id}", headers=headers).status_code == 200


@pytest.mark.req('REQ-003')
def test_complete_marks_the_record_done(client, headers):
    item_id = create_todo(client, headers)
    response = client.post(f"{URL}/{item_id}/complete", headers=headers)
    assert response.status_code == 200
    assert response.json()["status"] == "done"
    assert client.get(f"{URL}/{item_id}", headers=headers).json()["status"] == "done"
    assert client.post(f"{URL}/{MISSING}/complete", headers=headers).status_code == 404
