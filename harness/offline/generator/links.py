"""Many-to-many links (`many = ["tag"]` on an entity): the link tables, the Table.links SQL, the
link routes of src/api_<entity>.py and their tests. Pure: entity in, text out."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.codegen import doc, fill, lit, marks
from harness.offline.generator.naming import sql_quote as q
from harness.offline.generator.templates_dir import template

_ROUTES = template("api_py/links.tmpl")
_TESTS = template("api_tests/links.tmpl")


def link_table(e: Entity, other: str) -> str:
    return f"link_{e.ident}_{other}"


def link_columns(e: Entity, other: str) -> tuple[str, str]:
    return f"{e.ident}_id", f"{other}_id"


def link_schema(app: AppModel) -> list[str]:
    """The link tables (after every entity table): one row per linked pair, removed with either."""
    out = []
    for e in app.entities:
        for other in e.many:
            own, theirs = link_columns(e, other)
            t = q(link_table(e, other))
            out.append(f"CREATE TABLE IF NOT EXISTS {t} ("
                       f"{q(own)} INTEGER NOT NULL REFERENCES {q(e.ident)} ({q('id')}) ON DELETE CASCADE, "
                       f"{q(theirs)} INTEGER NOT NULL REFERENCES {q(other)} ({q('id')}) ON DELETE CASCADE, "
                       f"PRIMARY KEY ({q(own)}, {q(theirs)}))")
            out.append(f"CREATE INDEX IF NOT EXISTS {q(f'ix_{link_table(e, other)}')} ON {t} ({q(theirs)})")
    return out


def table_links(e: Entity) -> str:
    """The `links=` argument of the entity's Table (empty without links)."""
    if not e.many:
        return ""
    sql = {}
    for other in e.many:
        own, theirs = link_columns(e, other)
        t = q(link_table(e, other))
        sql[other] = (f'{q("id")} IN (SELECT {q(own)} FROM {t} WHERE {q(theirs)} = ?)',
                      f"INSERT OR IGNORE INTO {t} ({q(own)}, {q(theirs)}) VALUES (?, ?)",
                      f"DELETE FROM {t} WHERE {q(own)} = ? AND {q(theirs)} = ?",
                      f"SELECT {q(theirs)} FROM {t} WHERE {q(own)} = ? ORDER BY {q(theirs)}")
    return f"        links={lit(sql)},"


def link_routes(app: AppModel, e: Entity, owner: str, user: str) -> str:
    out = []
    for other in e.many:
        o = app.entity(other)
        base = f"/api/{e.slug}/{{item_id}}/{o.slug}"
        may = ('_may(db, item_id, user, "update")' if app.access else f"_found(TABLE.get(db, item_id, {owner}))")
        out.append(fill(_ROUTES, list_url=lit(base), link_url=lit(base + "/{other_id}"), other=lit(other),
                        other_plural=o.plural_ident, other_ident=other, other_doc=doc(o.name), owner=owner,
                        user=user, may=may, other_missing=lit(f"{o.name} not found"),
                        not_linked=lit(f"that {o.name} is not linked")).strip("\n"))
    return "\n\n\n".join(out)


def link_paths(app: AppModel, e: Entity) -> list[str]:
    return [p for other in e.many for p in (f"/api/{e.slug}/{{item_id}}/{app.entity(other).slug}",
                                             f"/api/{e.slug}/{{item_id}}/{app.entity(other).slug}/{{other_id}}")]


def link_params(e: Entity) -> tuple[list[str], list[str]]:
    """(list-route parameters, `linked` dict entries) of the ?<other>=<id> filters."""
    params = [f"linked_{o}: Annotated[RecordId | None, Query(alias={lit(o)})] = None" for o in e.many]
    return params, [f"{lit(o)}: linked_{o}" for o in e.many]


def link_tests(app: AppModel, e: Entity, fallback: tuple[str, ...]) -> list[str]:
    out = []
    for other in e.many:
        o = app.entity(other)
        two = not e.has("no_double_booking")
        bob = ('bob = login(client, "bobby")\n'
               'assert client.put(f"{links}/{other}", headers=bob).status_code == 404'
               if app.auth and not e.shared else "")
        out.append(fill(_TESTS, marks=marks(e.req_ids("link") or fallback), ident=e.ident,
                        other=other, other_plural=o.plural_ident, slug=o.slug, param=lit(other),
                        login_arg=", login" if app.auth else "",
                        second=f"second = create_{e.ident}(client, headers)" if two else "second = None",
                        bob_check=bob))
    return out
