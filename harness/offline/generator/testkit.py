"""Snippets shared by the generated test files: record factories through the HTTP API."""

from __future__ import annotations

from harness.offline.generator.appmodel import AppModel, Entity, body
from harness.offline.generator.api_py import collection_url
from harness.offline.generator.codegen import lit


def api_maker(e: Entity) -> str:
    """`create_<ident>(client, headers, **fields) -> id`, creating missing ancestors first."""
    lines = [f"def create_{e.ident}(client, headers, **fields):",
             f"    body = {{**{lit(body(e, full=False))}, **fields}}"]
    if e.fk:
        lines += [f"    if {lit(e.fk)} not in body:",
                  f"        body[{lit(e.fk)}] = create_{e.parent}(client, headers)"]
    lines += [f"    response = client.post({lit(collection_url(e))}, json=body, headers=headers)",
              "    assert response.status_code == 201, response.text",
              '    return response.json()["id"]']
    return "\n".join(lines)


def api_makers(app: AppModel, idents: list[str] | None = None) -> list[str]:
    """Factories for the given entities (default: all), in parent-first order."""
    wanted = set(idents) if idents is not None else {e.ident for e in app.entities}
    return [api_maker(e) for e in app.entities if e.ident in wanted]


def lineage_idents(app: AppModel, e: Entity) -> list[str]:
    return [x.ident for x in app.lineage(e.ident)]


def router_imports(idents: list[str], auth: bool, *extra: str) -> str:
    modules = sorted([f"api_{i}" for i in idents] + (["auth"] if auth else []) + list(extra))
    return f"from src import {', '.join(modules)}" if modules else ""


def routers(idents: list[str], auth: bool) -> str:
    """Arguments for make_client(...): the auth router first, then the entity routers."""
    return ", ".join((["auth.router"] if auth else []) + [f"api_{i}.router" for i in idents])
