"""`analyse(spec) -> AppModel`: which requirements the app implements, the entities in
parent-first order (parents and references that exist and close no cycle), their status states and
allowed moves, their buildable features, and the sanitised page routes."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from harness.constructs.collection_url import collection_slug
from harness.errors import SpecError
from harness.models.spec import AppSpec
from harness.offline.features import can_build
from harness.offline.generator.appmodel import AppModel, Entity, PageRoute
from harness.constructs.parent_key import parent_key
from harness.offline.generator.columns import build_columns, find_slot, is_status
from harness.offline.generator.limit_check import roomy_bounds
from harness.offline.generator.naming import ascii_fold, display_text, field_ident, py_ident, unique_idents

ENTITY_CAPS = ("create", "list", "complete", "crud", "relation", "other", "feature", "workflow",
               "access", "link", "calendar", "import", "attachment", "soft_delete",
               "computed")
# Routes owned by main.py, the auth pages, the form endpoints and FastAPI's docs.
_RESERVED_ROUTES = {"/", "/health", "/docs", "/redoc", "/openapi.json"}
_AUTH_ROUTES = {"/login", "/logout", "/register"}


def analyse(spec: AppSpec) -> AppModel:
    """Derive the AppModel; raises SpecError when the spec has no requirements."""
    if not spec.requirements:
        raise SpecError("spec has no requirements: add at least one before generating an app")
    raw = _dedupe_entities(spec)
    parents = _effective_parents(raw)
    status_idents = {py_ident(r.entity) for r in spec.requirements
                     if r.capability == "complete" and r.entity}
    entity_reqs = {ident: [] for ident in raw}
    supported, unsupported = [], []
    for req in spec.requirements:
        if req.capability == "unsupported" or (req.capability == "other" and not req.entity):
            unsupported.append(req)
        elif req.capability in ENTITY_CAPS:
            target = py_ident(req.entity) if req.entity else None
            if target in raw:
                req = req.model_copy(update={"entity": target})
                entity_reqs[target].append(req)
                supported.append(req)
            else:
                unsupported.append(req)  # about an entity the data model does not define
        else:
            supported.append(req)
    # "complete" would clash with the /{item_id}/complete action of a parent's URL space
    plurals = unique_idents([_plural_name(raw[i]) for i in raw])
    refs = _effective_refs(raw, parents)
    slugs = _collection_slugs(raw)
    entities = {}
    for (ident, source), plural_ident in zip(raw.items(), plurals):
        name = display_text(source.name) or ident
        asked = source.has_status or ident in status_idents
        states = _states(source, asked)
        has_status = asked or bool(states)
        fk = parent_key(raw[parents[ident]].name, parents[ident], spec.auth) if ident in parents else None
        columns = build_columns(source.fields, fk, refs.get(ident, {}), has_status)
        slot = find_slot(columns, fk)
        columns = tuple(replace(c, end=True) if slot and c.ident == slot.end != slot.start else c
                        for c in columns)
        entities[ident] = Entity(
            ident=ident, name=name, plural=display_text(source.plural) or name,
            plural_ident=plural_ident,
            slug=slugs[ident],
            columns=columns, parent=parents.get(ident), parent_key=fk, slot=slot,
            has_status=has_status,
            reqs=tuple(entity_reqs[ident]), states=states or ("open", "done"),
            transitions=_transitions(source, states), workflow=bool(states),
            cascade=source.on_parent_delete == "cascade",
            features=_features(spec, ident), shared=spec.auth and (source.shared or source.read == "public"),
            public=spec.auth and source.read == "public",
            manage=source.manage if spec.auth and source.manage in spec.roles else None,
            view=source.view if spec.auth and source.view in spec.roles else None,
            stamps=tuple((c, s) for c, s in source.stamps.items() if s in states),
            assigned=spec.auth and source.assigned, computed=tuple(source.computed.items()), calendar=source.calendar, csv_import=source.csv_import,
            attachment_types=tuple(source.attachment_types), attachment_max_kb=source.attachment_max_kb,
            soft_delete=source.soft_delete,
            many=tuple(dict.fromkeys(py_ident(m) for m in source.many if py_ident(m) in raw and py_ident(m) != ident)))
    entities = roomy_bounds(entities)
    deps = {i: ([parents[i]] if i in parents else []) + sorted(set(refs.get(i, {}).values())) for i in raw}
    for i in raw:   # a linked entity comes first, unless it already depends on this one
        deps[i] += [m for m in entities[i].many if m not in deps[i] and not _reaches(deps, m, i)]
    entities = {i: replace(entities[i], many=tuple(m for m in entities[i].many if m in deps[i]))
                for i in entities}
    ordered = tuple(entities[i] for i in _parent_first(list(raw), deps))
    auth = spec.auth or any(r.capability == "auth" for r in supported)
    has_dashboard = any(r.capability == "dashboard" for r in supported)
    return AppModel(
        title=display_text(spec.title) or "Generated app", auth=auth, entities=ordered,
        pages=_page_routes(spec, set(raw), auth, has_dashboard),
        supported=tuple(supported), unsupported=tuple(unsupported), language=spec.language,
        email_login=auth and spec.login == "email", roles=tuple(spec.roles) if spec.auth else (),
        change_password=spec.auth and spec.change_password, html=spec.html)


def _plural_name(entity: Any) -> str:
    plural = entity.plural or entity.name or entity.ident
    return f"{plural} items" if py_ident(plural) == "complete" else plural


def _collection_slugs(raw: dict[str, Any]) -> dict[str, str]:
    """Each entity's URL segment by the one rule (harness/constructs/collection_url.py); two plurals
    that fold to one segment get -2, -3 (then the checks call the first one's URL and say so)."""
    out: dict[str, str] = {}
    for ident, entity in raw.items():
        base = collection_slug(entity.plural or entity.name or ident)
        slug, n = base, 1
        while slug in out.values():
            n += 1
            slug = f"{base}-{n}"
        out[ident] = slug
    return out


def _dedupe_entities(spec: AppSpec) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for entity in spec.data_model:
        ident = py_ident(entity.ident)
        out.setdefault(ident, entity.model_copy(update={"ident": ident}))
    return out


def _effective_parents(raw: dict[str, Any]) -> dict[str, str]:
    """Parent idents that exist and are not the entity itself; in spec order, a parent that
    would close a cycle with the parents kept so far is dropped."""
    decided: dict[str, str] = {}
    for ident, entity in raw.items():
        parent = py_ident(entity.parent) if entity.parent else None
        if parent not in raw or parent == ident:
            continue
        node = parent
        while node in decided and node != ident:
            node = decided[node]
        if node != ident:
            decided[ident] = parent
    return decided


def _reaches(deps: dict[str, list[str]] | dict[str, set[str]], start: str, goal: str) -> bool:
    """Whether `goal` is reachable from `start` along `deps` (a dependency cycle would close)."""
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(deps.get(node, ()))
    return False


def _parent_first(order: list[str], deps: dict[str, list[str]]) -> list[str]:
    """Entities after everything they depend on (parent, referenced entities); acyclic input."""
    out: list[str] = []

    def visit(ident: str) -> None:
        if ident in out:
            return
        for dep in deps.get(ident, []):
            visit(dep)
        out.append(ident)

    for ident in order:
        visit(ident)
    return out


def _effective_refs(raw: dict[str, Any], parents: dict[str, str]) -> dict[str, dict[str, str]]:
    """entity -> {field ident: referenced entity} for reference fields that point at another
    entity of the spec (not the parent: that is the FK already) without closing a cycle."""
    depends: dict[str, set[str]] = {i: {parents[i]} if i in parents else set() for i in raw}

    out: dict[str, dict[str, str]] = {}
    for ident, entity in raw.items():
        for field in entity.fields:
            target = py_ident(field.ref) if field.kind == "reference" and field.ref else None
            if target not in raw or target == ident or target == parents.get(ident):
                continue
            if _reaches(depends, target, ident):
                continue  # a reference cycle: this field stays a plain number
            depends[ident].add(target)
            out.setdefault(ident, {})[field_ident(field.ident or field.name)] = target
    return out


def _states(source: Any, asked: bool) -> tuple[str, ...]:
    """Workflow states in order, de-duplicated; () when the entity has no workflow. A `status`
    enum field without a workflow gives the states of a status the spec asks for (`has_status`,
    "complete"; then any move is allowed); otherwise it stays the user's own field: the API takes
    and validates it on create like any enum (it refused it as an unknown field)."""
    states = tuple(dict.fromkeys(display_text(s) for s in source.workflow if display_text(s)))
    if not states and asked:
        field = next((f for f in source.fields if is_status(f)), None)
        states = tuple(dict.fromkeys(display_text(v) for v in field.enum_values if display_text(v))) if field else ()
    return states[:20] if len(states) >= 2 else ()


def _free_states(source: Any) -> bool:
    return not source.workflow and not source.transitions


def _transitions(source: Any, states: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Allowed moves per state: the spec's, else each state to the next; open/done both ways."""
    if not states:
        return (("open", ("done",)), ("done", ("open",)))
    if _free_states(source):
        return tuple((s, tuple(x for x in states if x != s)) for s in states)
    given = {display_text(k): [display_text(v) for v in vs] for k, vs in source.transitions.items()}
    out = []
    for index, state in enumerate(states):
        if given:
            nxt = tuple(dict.fromkeys(v for v in given.get(state, []) if v in states and v != state))
        else:
            nxt = states[index + 1:index + 2]
        out.append((state, nxt))
    return tuple(out)


def _features(spec: AppSpec, ident: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The buildable features of one entity, in registry order, one entry per kind."""
    found: dict[str, dict[str, Any]] = {}
    for feature in spec.features:
        target = py_ident(feature.entity) if feature.entity else None
        if target == ident and feature.kind not in found and can_build(feature, spec)[0]:
            found[feature.kind] = {"fields": [field_ident(f) for f in feature.fields],
                                   **feature.options}
    return tuple(sorted(found.items()))


def _page_routes(spec: AppSpec, idents: set[str], auth: bool, dashboard: bool) -> tuple[PageRoute, ...]:
    """Sanitised, unique page routes; "/" and routes owned elsewhere are left out."""
    owned = {"/"} | (_AUTH_ROUTES if auth else set()) | ({"/dashboard"} if dashboard else set())
    taken = _RESERVED_ROUTES | owned
    out = []
    for index, page in enumerate(spec.pages, start=1):
        entity = py_ident(page.entity) if page.entity else None
        entity = entity if entity in idents else None
        route = _clean_route(page.route)
        if route in owned:
            continue  # served by the index, the dashboard or the auth pages
        for candidate in (route, _clean_route(page.name), f"/page-{index}"):
            if candidate not in taken and not candidate.startswith(("/api", "/forms")):
                taken.add(candidate)
                out.append(PageRoute(route=candidate, name=display_text(page.name) or candidate, entity=entity))
                break
    return tuple(out)


def _clean_route(route: str) -> str:
    """Lowercase ASCII segments of letters, digits and hyphens: "/My Tasks/" -> "/my-tasks"."""
    parts = (re.sub(r"[^0-9a-z]+", "-", ascii_fold(p).lower()).strip("-")
             for p in (route or "").split("/"))
    return "/" + "/".join(p for p in parts if p)
