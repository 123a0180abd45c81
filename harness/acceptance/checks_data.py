"""Checks of an entity's data API: create with every field and read it back, list, update, delete,
typed fields refuse wrong values, required fields, unique fields, references and delete rules."""

from __future__ import annotations

from harness.constructs.parent_key import parent_key_of
from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import bounds, kind_of, same, wrong_values
from harness.models.spec import DataEntity, EntityField

REFUSED = (400, 404, 409, 422)     # a refusal the convention allows for bad input
MISSING_ID = 987654


def _compare(entity: DataEntity, sent: dict, got: dict, what: str) -> None:
    for f in entity.fields:
        if f.ident in sent and not same(f, sent[f.ident], got.get(f.ident)):
            raise CheckFailed(f"{what}: {f.ident} sent {sent[f.ident]!r}, read back {got.get(f.ident)!r}")


def create_read_back(api: Api, entity: DataEntity) -> str:
    who = api.writer(entity)
    body = api.body_for(entity, who)
    got = api.expect(api.call("POST", api.collection(entity), who, body), 201, 200, what="create")
    if not isinstance(got.body, dict) or "id" not in got.body:
        raise CheckFailed(f"create: no id in {got.line}")
    _compare(entity, body, got.body, "create answer")
    read = api.expect(api.call("GET", f"{api.collection(entity)}/{got.body['id']}", who), 200, what="read back")
    _compare(entity, body, read.body if isinstance(read.body, dict) else {}, "read back")
    return f"{len(body)} fields sent and read back equal ({read.line[:80]})"


def list_shows_all(api: Api, entity: DataEntity) -> str:
    who = api.writer(entity)
    made = [api.create(entity, who)["id"] for _ in range(2)]
    ids = [i.get("id") for i in api.listed(api.collection(entity), who, {"limit": 100})]
    missing = [m for m in made if m not in ids]
    if missing:
        raise CheckFailed(f"records {missing} created but not listed (listed: {ids[:20]})")
    return f"both created records listed ({len(ids)} in the list)"


def unknown_query_name(entity: DataEntity, wanted: str = "colour") -> str:
    """`wanted` when no field of the entity (or its range bounds) has that name, else a name none has."""
    taken = {f.ident for f in entity.fields} | {"status", "q", "sort", "order", "limit", "offset"}
    taken |= {f"{name}_{end}" for name in taken for end in ("min", "max")}
    return wanted if wanted not in taken else f"{wanted}_not_a_parameter"


def refuses_unknown_query(api: Api, entity: DataEntity, name: str = "") -> str:
    """A list filtered by a parameter it does not take answers 400/422 naming it, not every record."""
    who = api.writer(entity)
    api.create(entity, who)
    name = name or unknown_query_name(entity)
    got = api.call("GET", api.collection(entity), who, params={name: "red"})
    if got.status not in (400, 422):
        raise CheckFailed(f"?{name}=red (no such parameter) answered {got.line}: a wrong list passed off as a "
                          "filtered one, want 422 naming it")
    if name not in got.text:
        raise CheckFailed(f"?{name}=red answered {got.status} without naming {name!r}: {got.line}")
    return f"?{name}=red (no such parameter) → {got.status} naming it"


def _changeable(entity: DataEntity) -> EntityField | None:
    order = ("short_text", "long_text", "email", "phone", "url", "integer", "money", "decimal",
             "rating", "boolean", "enum")
    fields = [f for f in entity.fields if not f.ref and kind_of(f) in order and not f.unique]
    return min(fields, key=lambda f: order.index(kind_of(f)), default=None)


def update_sticks(api: Api, entity: DataEntity) -> str:
    field = _changeable(entity)
    if field is None:
        return "no plain field to change"
    who = api.writer(entity)
    rec = api.create(entity, who)
    fresh = api.body_for(entity, who)[field.ident] if not field.ref else rec[field.ident]
    if same(field, rec.get(field.ident), fresh):
        fresh = api.body_for(entity, who)[field.ident]
    path = f"{api.collection(entity)}/{rec['id']}"
    api.expect(api.call("PUT", path, who, {field.ident: fresh}), 200, what="update")
    read = api.expect(api.call("GET", path, who), 200, what="read after update")
    got = (read.body or {}).get(field.ident) if isinstance(read.body, dict) else None
    if not same(field, fresh, got):
        raise CheckFailed(f"PUT {field.ident}={fresh!r} answered 200 but GET reads {got!r}")
    return f"PUT {field.ident} sticks"


def delete_removes(api: Api, entity: DataEntity) -> str:
    who = api.writer(entity)
    rec = api.create(entity, who)
    path = f"{api.collection(entity)}/{rec['id']}"
    api.expect(api.call("DELETE", path, who), 204, 200, what="delete")
    api.expect(api.call("GET", path, who), 404, what="read after delete")
    ids = [i.get("id") for i in api.listed(api.collection(entity), who, {"limit": 100})]
    if rec["id"] in ids:
        raise CheckFailed(f"deleted record {rec['id']} still listed")
    return "deleted record answers 404 and is no longer listed"


def unknown_id_404(api: Api, entity: DataEntity) -> str:
    who = api.writer(entity)
    api.expect(api.call("GET", f"{api.collection(entity)}/{MISSING_ID}", who), 404, what="unknown id")
    return f"GET {api.collection(entity)}/{MISSING_ID} → 404"


def refuses_wrong(api: Api, entity: DataEntity, field: EntityField) -> str:
    who = api.writer(entity)
    base = api.body_for(entity, who)
    tried = []
    for what, value in wrong_values(field):
        got = api.call("POST", api.collection(entity), who, {**base, field.ident: value})
        if got.status not in (400, 422):
            raise CheckFailed(f"{field.ident} = {value!r} ({what}) was not refused: {got.line}")
        tried.append(f"{value!r} → {got.status}")
    for end, value in bounds(field):   # the bound itself is a right value (409: taken, yet valid)
        got = api.call("POST", api.collection(entity), who, {**api.body_for(entity, who), field.ident: value})
        if got.status not in (200, 201) and not (field.unique and got.status == 409):
            raise CheckFailed(f"{field.ident} = {value!r} ({end}) was refused: {got.line}")
        tried.append(f"{value!r} → {got.status}")
    return f"{field.ident}: " + ", ".join(tried)


def refuses_missing(api: Api, entity: DataEntity, ident: str) -> str:
    who = api.writer(entity)
    body = api.body_for(entity, who)
    body.pop(ident, None)
    got = api.call("POST", api.collection(entity), who, body)
    if got.status not in (400, 422):
        raise CheckFailed(f"a {entity.name} without {ident} was not refused: {got.line}")
    return f"without {ident} → {got.status}"


def refuses_duplicate(api: Api, entity: DataEntity, field: EntityField) -> str:
    who = api.writer(entity)
    first = api.create(entity, who)
    got = api.call("POST", api.collection(entity), who, api.body_for(entity, who, **{field.ident: first[field.ident]}))
    if got.status not in (400, 409, 422):
        raise CheckFailed(f"a second {entity.name} with the same {field.ident} was not refused: {got.line}")
    return f"duplicate {field.ident} → {got.status}"


def refuses_missing_reference(api: Api, entity: DataEntity, ident: str) -> str:
    who = api.writer(entity)
    got = api.call("POST", api.collection(entity), who, api.body_for(entity, who, **{ident: MISSING_ID}))
    if got.status not in REFUSED:
        raise CheckFailed(f"{ident} = {MISSING_ID} (no such record) was not refused: {got.line}")
    return f"{ident} → missing record → {got.status}"


def delete_rule(api: Api, entity: DataEntity, target: DataEntity, ident: str, cascade: bool) -> str:
    """Deleting the record `ident` points at: refused while referred to (409), or cascades."""
    who = api.writer(entity)
    child = api.create(entity, who, **{ident: api.create(target, who)["id"]})   # its own, not the shared one
    target_path = f"{api.collection(target)}/{child[ident]}"
    child_path = f"{api.collection(entity)}/{child['id']}"
    got = api.call("DELETE", target_path, who)
    if cascade:
        if got.status not in (200, 204):
            raise CheckFailed(f"cascade: deleting the {target.name} did not succeed: {got.line}")
        api.expect(api.call("GET", child_path, who), 404, what=f"the {entity.name} after its {target.name} was deleted")
        return f"deleting the {target.name} deleted its {entity.plural}"
    if got.status != 409:
        raise CheckFailed(f"deleting a {target.name} a {entity.name} refers to: expected 409, got {got.line}")
    api.expect(api.call("GET", target_path, who), 200, what=f"the {target.name} after the refused delete")
    api.expect(api.call("GET", child_path, who), 200, what=f"the {entity.name} after the refused delete")
    return f"deleting a referred-to {target.name} → 409, both records kept"


def children_listed_exactly(api: Api, entity: DataEntity, parent: DataEntity) -> str:
    who = api.writer(entity)
    key = parent_key_of(api.spec, entity)
    one, two = api.create(parent, who), api.create(parent, who)
    mine = {api.create(entity, who, **{key: one["id"]})["id"] for _ in range(2)}
    api.create(entity, who, **{key: two["id"]})
    path = f"{api.collection(parent)}/{one['id']}/{api.collection(entity).rsplit('/', 1)[1]}"
    ids = {i.get("id") for i in api.listed(path, who)}
    if ids != mine:
        raise CheckFailed(f"GET {path} listed {sorted(ids)}; that {parent.name}'s {entity.plural} are {sorted(mine)}")
    return f"GET {path} lists exactly its {len(mine)} {entity.plural}"
