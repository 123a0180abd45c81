"""Tests for the HTML pages: rendering, escaping, form posts."""

import pytest

from src import api_todo, pages

PAGE_ROUTES = ['/']
# entity -> (form slug, page that lists it, API collection URL, form fields, expected JSON)
FORMS = {
    'todo': ('todos', '/', '/api/todos', {'title': 'Sample text'}, {'title': 'Sample text'}),
}
PARENT_FK = {}
PARENT_OF = {}
REFERENCES = {}  # entity -> {field: referenced entity}


@pytest.fixture
def client(make_client):
    return make_client(api_todo.router, pages.router)


@pytest.fixture
def headers(client):
    return {}


def create_todo(client, headers, **fields):
    body = {**{'title': 'Sample text'}, **fields}
    response = client.post('/api/todos', json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()["id"]


@pytest.mark.req('REQ-004')
def test_every_page_renders_a_form(client, headers):
    for route in PAGE_ROUTES:
        response = client.get(route)
        assert response.status_code == 200, route
        assert response.headers["content-type"].startswith("text/html")
        assert "<form" in response.text and "</html>" in response.text


@pytest.mark.req('REQ-004')
def test_forms_create_records_and_pages_show_them(client, headers):
    created = {}
    for key, (slug, page, url, fields, expected) in FORMS.items():
        data = dict(fields)
        if key in PARENT_FK:
            data[PARENT_FK[key]] = str(created[PARENT_OF[key]])
        for field, target in REFERENCES.get(key, {}).items():
            data[field] = str(created[target])
        response = client.post(f"/forms/{slug}", data={**data, "next": page}, follow_redirects=False)
        assert response.status_code == 303, response.text
        assert response.headers["location"] == page
        rows = client.get(url, headers=headers).json()
        assert len(rows) == 1
        assert {name: rows[0][name] for name in expected} == expected
        created[key] = rows[0]["id"]
        assert client.get(page).status_code == 200
    assert client.post("/forms/no-such-form", data={}).status_code == 404


@pytest.mark.req('REQ-004')
def test_values_are_html_escaped(client, headers):
    create_todo(client, headers, **{'title': "<b>Tom & Jerry</b>"})
    page = client.get('/')
    assert "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;" in page.text
    assert "<b>Tom" not in page.text


@pytest.mark.req('REQ-004')
def test_invalid_form_is_422_with_the_form_again(client, headers):
    response = client.post('/forms/todos', data={})
    assert response.status_code == 422
    assert "<form" in response.text and "error" in response.text


@pytest.mark.req('REQ-004')
def test_edit_and_delete_forms(client, headers):
    item_id = create_todo(client, headers, **{'title': "Before the edit"})
    form = client.get(f"/forms/todos/{item_id}/edit", params={"next": '/'})
    assert form.status_code == 200 and "Before the edit" in form.text and "<form" in form.text
    edited = client.post(f"/forms/todos/{item_id}/edit",
                         data={'title': "After the edit", "next": '/'}, follow_redirects=False)
    assert edited.status_code == 303 and edited.headers["location"] == '/'
    assert client.get(f"/api/todos/{item_id}", headers=headers).json()['title'] == "After the edit"
    assert "After the edit" in client.get('/').text
    gone = client.post(f"/forms/todos/{item_id}/delete", data={"next": '/'}, follow_redirects=False)
    assert gone.status_code == 303
    assert client.get(f"/api/todos/{item_id}", headers=headers).status_code == 404
    assert client.post(f"/forms/todos/{item_id}/delete", data={}).status_code == 404
    assert client.get(f"/forms/todos/{item_id}/edit").status_code == 404


@pytest.mark.req('REQ-004')
def test_complete_button_marks_done(client, headers):
    item_id = create_todo(client, headers)
    response = client.post(f"/forms/todos/{item_id}/complete", data={"next": "/"},
                           follow_redirects=False)
    assert response.status_code == 303
    assert client.get(f"/api/todos/{item_id}", headers=headers).json()["status"] == "done"
    assert client.post("/forms/todos/999999/complete", data={}).status_code == 404
