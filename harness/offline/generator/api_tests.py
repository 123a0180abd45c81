"""Builds tests/test_api_<entity>.py: the entity's router on a small app, real HTTP semantics."""

from __future__ import annotations

from harness.offline.generator.api_access_tests import access_tests
from harness.offline.generator.api_feature_tests import feature_tests
from harness.offline.generator.api_features import unknown_query_name
from harness.offline.generator.api_py import children_url, collection_url
from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.links import link_tests
from harness.offline.generator.naming import py_ident
from harness.offline.generator.samples import body, distinct, sample
from harness.offline.generator.codegen import doc, fill, lit, marks, module
from harness.offline.generator.testkit import (
    api_makers,
    lineage_idents,
    linked_body,
    router_imports,
    routers,
)
from harness.offline.generator.templates_dir import template

_HEADER = template("api_tests/header.tmpl")

_CRUD = template("api_tests/crud.tmpl")

_COMPLETE = template("api_tests/complete.tmpl")

_RELATION = template("api_tests/relation.tmpl")

_REFERENCE = template("api_tests/reference.tmpl")

_UNIQUE = template("api_tests/unique.tmpl")
_WORKFLOW = template("api_tests/workflow.tmpl")

_AUTH = template("api_tests/auth.tmpl")

_ANY_CASE = template("api_tests/any_case.tmpl")

_STAMP = template("api_tests/stamp.tmpl")


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
        imports=router_imports(idents, app.auth, *(["people"] if app.access else [])), url=lit(url),
        full=lit(body(e)), minimal=lit(body(e, full=False)), change=lit(change(e)),
        routers=routers(idents, app.auth) + (", people.router" if app.access else ""),
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
        stored_response=stored(e, "response.json()"),
        stored_read=stored(e, 'client.get(f"{URL}/{item_id}", headers=headers).json()'),
        stored_expected=stored(e, "{**before.json(), **CHANGE}"),
        listed="[second, first]" if e.newest_key else "[first, second]", unknown=lit(unknown_query_name(e)),   # same date: the last added first
        status_check=f'assert created["status"] == {lit(e.states[0])}' if e.has_status else ""))
    if e.has_status and not e.workflow:
        chunks.append(fill(_COMPLETE, marks=marks(e.req_ids("complete") or fallback), ident=e.ident))
    if e.parent:
        chunks.append(fill(_RELATION, marks=marks(e.req_ids("relation") or fallback), parent=e.parent,
                           fk=lit(e.fk), on_delete=_on_delete(e)))
    choice = next((c for c in e.plain if c.kind == "enum" and len(c.bounds.values) > 1
                   and all(v.isalpha() for v in c.bounds.values[:2])), None)
    if choice is not None:   # "Food" is "food"; "general" is "General" when the spec lists "General"
        first, second = choice.bounds.values[:2]
        chunks.append(fill(_ANY_CASE, marks=marks(e.req_ids("crud", "create") or fallback), ident=e.ident,
                           key=lit(choice.ident), shouted=lit(first.upper()), value=lit(first),
                           titled=lit(second.title() if second == second.lower() else second.lower()),
                           other=lit(second)))
    unique = [c for c in e.columns if c.unique]   # a reference too: one record per referenced one
    for c in unique[:1]:   # the second record repeats only this value: the 409 can only name it
        others = ", ".join(f"{lit(o.ident)}: " + (f"create_{o.ref}(client, headers)" if o.ref else distinct(o, "1000"))
                           for o in unique if o is not c)
        chunks.append(fill(_UNIQUE, marks=marks(e.req_ids("crud", "create") or fallback),
                           field=c.ident, key=lit(c.ident), ident=e.ident, others=others))
    for c in e.refs:
        chunks.append(fill(_REFERENCE, marks=marks(e.req_ids("relation", "crud") or fallback),
                           field=c.ident, target=c.ref, key=lit(c.ident),
                           target_url=f"{lit(collection_url(app.entity(c.ref)))}"))
    if e.workflow:
        path, refused = workflow_walk(e)
        chunks.append(fill(_WORKFLOW, marks=marks(e.req_ids("workflow", "complete") or fallback),
                           ident=e.ident, first=lit(e.states[0]), path=lit(path),
                           last=lit(path[-1] if path else e.states[0]), refused=refused))
    chunks += stamp_tests(e, fallback)
    chunks += feature_tests(app, e, fallback)
    if app.auth and not e.shared:
        chunks.append(fill(_AUTH, marks=marks(e.req_ids() or fallback), ident=e.ident,
                           bob_checks=_bob_checks(app, e)))
    chunks += access_tests(app, e, fallback) + link_tests(app, e, fallback)
    return module(*chunks)


def path_to(e: Entity, state: str) -> list[str] | None:
    """The states a record passes through from the first to `state` (that one last), along the
    allowed moves by the fewest steps; None when no moves lead there."""
    allowed, paths = dict(e.transitions), {e.states[0]: []}
    queue = [e.states[0]]
    while queue:
        here = queue.pop(0)
        for nxt in allowed.get(here, ()):
            if nxt not in paths:
                paths[nxt] = [*paths[here], nxt]
                queue.append(nxt)
    return paths.get(state)


def stamp_tests(e: Entity, fallback: tuple[str, ...]) -> list[str]:
    """A stamped date: empty until the record moves into its state, then today's; a date the same
    request gives is kept."""
    out = []
    for column, state in e.stamps:
        path = path_to(e, state)
        if not path:
            continue
        req = [r.id for r in e.reqs if r.acceptance == f"{e.name}.stamp {column}"]
        out.append(fill(_STAMP, marks=marks(req or fallback), column=column, ident=e.ident,
                        state_ident=py_ident(state), key=lit(column), before=lit(path[:-1]), state=lit(state)))
    return out


def change(e: Entity) -> dict:
    """A valid partial update: the first constant column outside the date/time range gets its
    second sample; else the status moves to an allowed next state."""
    slot = {e.slot.start, e.slot.end} if e.slot else set()
    column = next((c for c in e.plain if c.ident not in slot), None)
    if column is not None:
        return {column.ident: sample(column, 1)}
    nxt = dict(e.transitions).get(e.states[0], ()) if e.has_status else ()
    return {"status": nxt[0]} if nxt else {}


def stored(e: Entity, record: str) -> str:
    """The code of `record` as an update test compares it: without the computed values, which
    follow the changed fields (their own test checks them)."""
    if not e.computed:
        return record
    names = tuple(name for name, _ in e.computed)
    return f"{{key: value for key, value in {record}.items() if key not in {names!r}}}"


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


def _bob_checks(app: AppModel, e: Entity) -> str:
    lines = []
    if e.has_status:
        lines.append('assert client.post(f"{URL}/{item_id}/complete", headers=bob).status_code == 404')
    if e.parent and not e.manage and not app.entity(e.parent).shared:
        lines += [f"alice_parent = create_{e.parent}(client, headers)",
                  f"assert client.post(URL, json={{**minimal_body(client, headers), {lit(e.fk)}: alice_parent}}, "

                  "headers=bob).status_code == 404",
                  "assert client.get(CHILDREN.format(parent_id=alice_parent), "
                  "headers=bob).status_code == 404"]
    return "\n".join(lines)
