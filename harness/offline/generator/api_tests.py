"""Builds tests/test_api_<entity>.py: the entity's router on a small app, real HTTP semantics."""

from __future__ import annotations

from harness.offline.generator.api_feature_tests import feature_tests
from harness.offline.generator.api_py import children_url, collection_url
from harness.offline.generator.appmodel import AppModel, Entity, body, sample
from harness.offline.generator.codegen import doc, fill, lit, marks, module
from harness.offline.generator.testkit import (
    api_makers,
    lineage_idents,
    linked_body,
    router_imports,
    routers,
)

_HEADER = '''
"""API tests for @@plural_doc@@ (@@url_doc@@), mounted on a small app with the routers they need."""

import csv
import io
import json

import pytest

@@imports@@

URL = @@url@@
FULL = @@full@@
MINIMAL = @@minimal@@
CHANGE = @@change@@
MISSING = 2**40  # a valid id that no row has
@@children_const@@


@pytest.fixture
def client(make_client):
    return make_client(@@routers@@)


@pytest.fixture
def headers(client@@login_arg@@):
    return @@headers@@


def full_body(client, headers):
    return @@full_body@@


def minimal_body(client, headers):
    """The required fields only, with the required references (not the parent) created."""
    return @@minimal_body@@
'''

_CRUD = '''
@@create_marks@@def test_create_returns_201_and_the_record(client, headers):
    body = full_body(client, headers)
    response = client.post(URL, json=body, headers=headers)
    assert response.status_code == 201, response.text
    created = response.json()
    assert isinstance(created["id"], int) and created["created_at"]
    assert {key: created[key] for key in body} == body
    @@status_check@@
    assert client.get(f"{URL}/{created['id']}", headers=headers).json() == created


@@list_marks@@def test_list_returns_created_records(client, headers):
    first = create_@@ident@@(client, headers)
    second = create_@@ident@@(client, headers)
    response = client.get(URL, headers=headers)
    assert response.status_code == 200
    assert [item["id"] for item in response.json()] == [first, second]
    page = client.get(URL, params={"limit": 1, "offset": 1}, headers=headers)
    assert [item["id"] for item in page.json()] == [second]


@@crud_marks@@def test_read_update_delete(client, headers):
    item_id = create_@@ident@@(client, headers)
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


@@all_marks@@def test_invalid_input_is_422_and_unknown_ids_are_404(client, headers):
    body = full_body(client, headers)
    item_id = client.post(URL, json=body, headers=headers).json()["id"]
    raw = {**headers, "Content-Type": "application/json"}
    assert client.post(URL, content=b'{"broken": ', headers=raw).status_code == 422
    assert client.post(URL, content=b"", headers=raw).status_code == 422
    assert client.post(URL, json=[body], headers=headers).status_code == 422
    @@invalid_checks@@
    assert client.get(f"{URL}/{MISSING}", headers=headers).status_code == 404
    assert client.put(f"{URL}/{MISSING}", json={}, headers=headers).status_code == 404
    assert client.delete(f"{URL}/{MISSING}", headers=headers).status_code == 404
    assert client.get(f"{URL}/not-a-number", headers=headers).status_code == 422
    assert client.get(f"{URL}/{10**30}", headers=headers).status_code == 422
    assert client.get(URL, params={"limit": 0}, headers=headers).status_code == 422
    assert client.get(f"{URL}/{item_id}", headers=headers).status_code == 200
'''

_COMPLETE = '''
@@marks@@def test_complete_marks_the_record_done(client, headers):
    item_id = create_@@ident@@(client, headers)
    response = client.post(f"{URL}/{item_id}/complete", headers=headers)
    assert response.status_code == 200
    assert response.json()["status"] == "done"
    assert client.get(f"{URL}/{item_id}", headers=headers).json()["status"] == "done"
    assert client.post(f"{URL}/{MISSING}/complete", headers=headers).status_code == 404
'''

_RELATION = '''
@@marks@@def test_records_belong_to_an_existing_@@parent@@(client, headers):
    parent_id = create_@@parent@@(client, headers)
    other_id = create_@@parent@@(client, headers)
    base = minimal_body(client, headers)
    child = client.post(URL, json={**base, @@fk@@: parent_id}, headers=headers)
    assert child.status_code == 201 and child.json()[@@fk@@] == parent_id
    child_id = child.json()["id"]
    listing = client.get(CHILDREN.format(parent_id=parent_id), headers=headers)
    assert listing.status_code == 200 and [c["id"] for c in listing.json()] == [child_id]
    assert client.get(CHILDREN.format(parent_id=other_id), headers=headers).json() == []
    assert client.get(CHILDREN.format(parent_id=MISSING), headers=headers).status_code == 404
    assert client.post(URL, json={**base, @@fk@@: MISSING}, headers=headers).status_code == 404
    assert client.post(URL, json=base, headers=headers).status_code == 422
    moved = client.put(f"{URL}/{child_id}", json={@@fk@@: other_id}, headers=headers)
    assert moved.status_code == 200 and moved.json()[@@fk@@] == other_id
    assert client.put(f"{URL}/{child_id}", json={@@fk@@: MISSING}, headers=headers).status_code == 404
    @@on_delete@@
'''

_REFERENCE = '''
@@marks@@def test_@@field@@_must_name_an_existing_@@target@@(client, headers):
    body = full_body(client, headers)
    target_id = body[@@key@@]
    created = client.post(URL, json=body, headers=headers)
    assert created.status_code == 201 and created.json()[@@key@@] == target_id
    missing = client.post(URL, json={**body, @@key@@: MISSING}, headers=headers)
    assert missing.status_code == 422 and @@key@@ in missing.text
    item_id = created.json()["id"]
    assert client.put(f"{URL}/{item_id}", json={@@key@@: MISSING}, headers=headers).status_code == 422
    in_use = client.delete(f"{@@target_url@@}/{target_id}", headers=headers)
    assert in_use.status_code == 409
    assert client.get(f"{@@target_url@@}/{target_id}", headers=headers).status_code == 200
'''

_WORKFLOW = '''
@@marks@@def test_status_follows_the_workflow(client, headers):
    item_id = create_@@ident@@(client, headers)
    assert client.get(f"{URL}/{item_id}", headers=headers).json()["status"] == @@first@@
    for state in @@path@@:
        moved = client.put(f"{URL}/{item_id}", json={"status": state}, headers=headers)
        assert moved.status_code == 200, moved.text
        assert moved.json()["status"] == state
    @@refused@@
    assert client.put(f"{URL}/{item_id}", json={"status": "not-a-state"}, headers=headers).status_code == 422
    assert client.get(f"{URL}/{item_id}", headers=headers).json()["status"] == @@last@@
'''

_AUTH = '''
@@marks@@def test_every_route_needs_a_bearer_token(client, headers):
    item_id = create_@@ident@@(client, headers)
    body = full_body(client, headers)
    for bad in ({}, {"Authorization": "Bearer wrong-token"}):
        for method, path, payload in (("POST", URL, body), ("GET", URL, None),
                                      ("GET", f"{URL}/{item_id}", None),
                                      ("PUT", f"{URL}/{item_id}", CHANGE),
                                      ("DELETE", f"{URL}/{item_id}", None)):
            response = client.request(method, path, json=payload, headers=bad)
            assert response.status_code == 401, (method, path)
            assert response.headers["www-authenticate"] == "Bearer"


@@marks@@def test_other_users_records_are_404(client, headers, login):
    item_id = create_@@ident@@(client, headers)
    bob = login(client, "bobby")
    assert client.get(f"{URL}/{item_id}", headers=bob).status_code == 404
    assert client.put(f"{URL}/{item_id}", json=CHANGE, headers=bob).status_code == 404
    assert client.delete(f"{URL}/{item_id}", headers=bob).status_code == 404
    assert client.get(URL, headers=bob).json() == []
    @@bob_checks@@
    assert client.get(f"{URL}/{item_id}", headers=headers).status_code == 200
'''


def test_api_py(app: AppModel, e: Entity, fallback: tuple[str, ...] = ()) -> str:
    """The text of tests/test_api_<ident>.py."""
    idents = lineage_idents(app, e)
    url = collection_url(e)
    full_body = linked_body(e, "FULL", required_only=False)
    required_refs = [c for c in e.refs if c.required]
    minimal_body = ("{**MINIMAL, " + ", ".join(f"{lit(c.ident)}: create_{c.ref}(client, headers)"
                                               for c in required_refs) + "}"
                    if required_refs else "dict(MINIMAL)")
    header = fill(
        _HEADER, plural_doc=doc(e.plural), url_doc=url,
        imports=router_imports(idents, app.auth), url=lit(url), full=lit(body(e)),
        minimal=lit(body(e, full=False)), change=lit(change(e)), routers=routers(idents, app.auth),
        login_arg=", login" if app.auth else "", headers='login(client, "alice")' if app.auth else "{}",
        full_body=full_body, minimal_body=minimal_body, children_const=(
            f"PARENT_URL = {lit(collection_url(app.entity(e.parent)))}\n"
            f"CHILDREN = {lit(children_url(app, e))}") if e.parent else "")
    chunks = [header, *api_makers(app, idents)]
    chunks.append(fill(
        _CRUD, ident=e.ident, create_marks=marks(e.req_ids("create", "crud", "other") or fallback),
        list_marks=marks(e.req_ids("list", "crud") or fallback),
        crud_marks=marks(e.req_ids("crud", "other") or fallback),
        all_marks=marks(e.req_ids() or fallback), invalid_checks=_invalid_checks(e),
        status_check=f'assert created["status"] == {lit(e.states[0])}' if e.has_status else ""))
    if e.has_status and not e.workflow:
        chunks.append(fill(_COMPLETE, marks=marks(e.req_ids("complete") or fallback), ident=e.ident))
    if e.parent:
        chunks.append(fill(_RELATION, marks=marks(e.req_ids("relation") or fallback), parent=e.parent,
                           fk=lit(e.fk), on_delete=_on_delete(e)))
    for c in e.refs:
        chunks.append(fill(_REFERENCE, marks=marks(e.req_ids("relation", "crud") or fallback),
                           field=c.ident, target=c.ref, key=lit(c.ident),
                           target_url=f"{lit(collection_url(app.entity(c.ref)))}"))
    if e.workflow:
        path, refused = workflow_walk(e)
        chunks.append(fill(_WORKFLOW, marks=marks(e.req_ids("workflow", "complete") or fallback),
                           ident=e.ident, first=lit(e.states[0]), path=lit(path),
                           last=lit(path[-1] if path else e.states[0]), refused=refused))
    chunks += feature_tests(app, e, fallback)
    if app.auth:
        chunks.append(fill(_AUTH, marks=marks(e.req_ids() or fallback), ident=e.ident,
                           bob_checks=_bob_checks(e)))
    return module(*chunks)


def change(e: Entity) -> dict:
    """A valid partial update: the first constant column outside the date/time range gets its
    second sample; else the status moves to an allowed next state."""
    slot = {e.slot.start, e.slot.end} if e.slot else set()
    column = next((c for c in e.plain if c.ident not in slot), None)
    if column is not None:
        return {column.ident: sample(column, 1)}
    nxt = dict(e.transitions).get(e.states[0], ()) if e.has_status else ()
    return {"status": nxt[0]} if nxt else {}


def workflow_walk(e: Entity) -> tuple[list[str], str]:
    """(states visited from the first along allowed moves, an assertion that a move the
    workflow does not allow is 409 — or nothing when every move is allowed)."""
    allowed, path, state = dict(e.transitions), [], e.states[0]
    while allowed.get(state) and allowed[state][0] not in path and allowed[state][0] != e.states[0]:
        state = allowed[state][0]
        path.append(state)
    last = path[-1] if path else e.states[0]
    bad = next((s for s in e.states if s != last and s not in allowed.get(last, ())), None)
    if bad is None:
        return path, ""
    return path, (f'refused = client.put(f"{{URL}}/{{item_id}}", json={{"status": {lit(bad)}}}, '
                  "headers=headers)\nassert refused.status_code == 409 and "
                  f"{lit(last)} in refused.json()[\"detail\"]")


def _on_delete(e: Entity) -> str:
    """Deleting a parent that has records: refused with 409, or cascades, as the spec says."""
    if e.cascade:
        return "\n".join([
            'assert client.delete(f"{PARENT_URL}/{other_id}", headers=headers).status_code == 204',
            'assert client.get(f"{URL}/{child_id}", headers=headers).status_code == 404'])
    return "\n".join([
        'assert client.delete(f"{PARENT_URL}/{other_id}", headers=headers).status_code == 409',
        'assert client.get(f"{URL}/{child_id}", headers=headers).status_code == 200',
        'assert client.delete(f"{URL}/{child_id}", headers=headers).status_code == 204',
        'assert client.delete(f"{PARENT_URL}/{other_id}", headers=headers).status_code == 204'])


def _literal(value: object) -> str:
    """A short literal: long repeated text as "x" * n."""
    if isinstance(value, str) and len(value) > 40 and len(set(value)) == 1:
        return f"{value[0]!r} * {len(value)}"
    return lit(value)


def _rejects(payload: str, headers: str = "headers") -> str:
    return f"assert client.post(URL, {payload}, headers={headers}).status_code == 422"


def _invalid_checks(e: Entity) -> str:
    """Assertions for wrong types, missing fields, oversized text, NaN, huge ints, null, unicode."""
    lines = []
    for c in e.columns:
        key = lit(c.ident)
        lines.append(_rejects(f"json={{**body, {key}: [1, 2]}}"))
        if c.required:
            lines.append(_rejects(f"json={{k: v for k, v in body.items() if k != {key}}}"))
            lines.append(f'assert client.put(f"{{URL}}/{{item_id}}", json={{{key}: None}}, '
                         "headers=headers).status_code == 422")
        if c.is_text:
            lines.append(_rejects(f'json={{**body, {key}: "x" * 100_000}}'))
            lines.append(_rejects(f"content=json.dumps({{**body, {key}: chr(0xD800)}})", "raw"))
        if c.type == "float":
            lines.append(_rejects(f'content=json.dumps({{**body, {key}: float("nan")}})', "raw"))
        if c.type == "int":
            lines.append(_rejects(f"json={{**body, {key}: 10**30}}"))
        for bad in c.entry.bad_values(c.bounds):  # the kind's own invalid samples
            lines.append(_rejects(f"json={{**body, {key}: {_literal(bad)}}}"))
            lines.append(f'assert client.put(f"{{URL}}/{{item_id}}", json={{{key}: {_literal(bad)}}}, '
                         "headers=headers).status_code == 422")
    lines.append(_rejects('json={**body, "not_a_field": 1}'))
    lines.append('assert client.put(f"{URL}/{item_id}", json={"not_a_field": 1}, '
                 "headers=headers).status_code == 422")
    if e.fk:
        lines.append(_rejects(f'json={{**body, {lit(e.fk)}: "abc"}}'))
    if e.has_status:
        lines.append('assert client.put(f"{URL}/{item_id}", json={"status": "maybe"}, '
                     "headers=headers).status_code == 422")
    return "\n".join(lines)


def _bob_checks(e: Entity) -> str:
    lines = []
    if e.has_status:
        lines.append('assert client.post(f"{URL}/{item_id}/complete", headers=bob).status_code == 404')
    if e.parent:
        lines += [f"alice_parent = create_{e.parent}(client, headers)",
                  f"assert client.post(URL, json={{**minimal_body(client, headers), {lit(e.fk)}: alice_parent}}, "

                  "headers=bob).status_code == 404",
                  "assert client.get(CHILDREN.format(parent_id=alice_parent), "
                  "headers=bob).status_code == 404"]
    return "\n".join(lines)
