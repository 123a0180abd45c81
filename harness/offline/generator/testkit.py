"""Snippets shared by the generated test files: record factories through the HTTP API."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Entity
from harness.offline.generator.samples import body, distinct
from harness.offline.generator.api_py import collection_url
from harness.offline.generator.codegen import lit


def api_maker(e: Entity) -> str:
    """`create_<ident>(client, headers, **fields) -> id`, creating missing ancestors first."""
    lines = [f"def create_{e.ident}(client, headers, **fields):",
             f"    body = {{**{lit(body(e, full=False))}, **fields}}"]
    unique = [c for c in e.plain if c.unique]
    if unique:  # each call makes a record with its own values of the unique fields
        lines.append(f"    create_{e.ident}.calls = getattr(create_{e.ident}, 'calls', 0) + 1")
        lines += [f"    body.setdefault({lit(c.ident)}, None)\n    if {lit(c.ident)} not in fields:\n"
                  f"        body[{lit(c.ident)}] = {distinct(c, f'create_{e.ident}.calls')}" for c in unique]
    for key, target in ([(e.fk, e.parent)] if e.fk else []) + [(c.ident, c.ref) for c in e.refs
                                                              if c.required]:
        lines += [f"    if {lit(key)} not in body:",
                  f"        body[{lit(key)}] = create_{target}(client, headers)"]
    lines += [f"    response = client.post({lit(collection_url(e))}, json=body, headers=headers)",
              "    assert response.status_code == 201, response.text",
              '    return response.json()["id"]']
    return "\n".join(lines)


def api_makers(app: AppModel, idents: list[str] | None = None) -> list[str]:
    """Factories for the given entities (default: all), in parent-first order."""
    wanted = set(idents) if idents is not None else {e.ident for e in app.entities}
    return [api_maker(e) for e in app.entities if e.ident in wanted]


def lineage_idents(app: AppModel, e: Entity) -> list[str]:
    """The entity and every entity it needs (parents, referenced entities), in app order."""
    needed, todo = set(), [e.ident]
    while todo:
        ident = todo.pop()
        if ident not in needed:
            needed.add(ident)
            other = app.entity(ident)
            todo += ([other.parent] if other.parent else []) + [c.ref for c in other.refs] + list(other.many)
    return [x.ident for x in app.entities if x.ident in needed]


def linked_body(e: Entity, base: str, required_only: bool) -> str:
    """An expression: `base` plus the parent FK and references, each created on the fly."""
    links = ([(e.fk, e.parent)] if e.fk else []) + [
        (c.ident, c.ref) for c in e.refs if c.required or not required_only]
    if not links:
        return f"dict({base})"
    return "{**" + base + ", " + ", ".join(
        f"{lit(key)}: create_{target}(client, headers)" for key, target in links) + "}"


def router_imports(idents: list[str], auth: bool, *extra: str) -> str:
    modules = sorted([f"api_{i}" for i in idents] + (["auth"] if auth else []) + list(extra))
    return f"from src import {', '.join(modules)}" if modules else ""


def routers(idents: list[str], auth: bool) -> str:
    """Arguments for make_client(...): the auth router first, then the entity routers."""
    return ", ".join((["auth.router"] if auth else []) + [f"api_{i}.router" for i in idents])
