"""What the generator derives from an AppSpec: entities in parent-first order with their columns,
URL segments and requirements, the page routes, and which requirements the app can implement.

Everything here is pure and deterministic (spec order, never set order), so the same spec always
yields the same files.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from harness.errors import SpecError
from harness.offline.generator.naming import ascii_fold, py_ident, unique_idents
from harness.models.spec import AppSpec, Requirement

ENTITY_CAPS = ("create", "list", "complete", "crud", "relation", "other")
# Columns the generator adds itself; a spec field with one of these names is dropped.
_GENERATED_COLUMNS = {"id", "owner_id", "created_at", "status"}
# Attributes of pydantic's BaseModel a field must not shadow (an alias is used instead).
_BASEMODEL_NAMES = {
    "construct", "copy", "dict", "from_orm", "json", "parse_file", "parse_obj", "parse_raw",
    "schema", "schema_json", "update_forward_refs", "validate", "fields",
}
# Routes owned by main.py, the auth pages, the form endpoints and FastAPI's docs.
_RESERVED_ROUTES = {"/", "/health", "/docs", "/redoc", "/openapi.json"}
_AUTH_ROUTES = {"/login", "/logout", "/register"}


@dataclass(frozen=True)
class Column:
    """One user-defined column of an entity table."""

    ident: str
    label: str
    type: str
    required: bool

    @property
    def needs_alias(self) -> bool:
        """True when the name would shadow a BaseModel attribute (the model then uses an alias)."""
        return self.ident in _BASEMODEL_NAMES or self.ident.startswith("model_")

    @property
    def attr(self) -> str:
        return f"{self.ident}_" if self.needs_alias else self.ident


@dataclass(frozen=True)
class Entity:
    """An entity as generated: table `ident`, collection URL /api/<slug>, dashboard key plural_ident."""

    ident: str
    name: str
    plural: str
    plural_ident: str
    slug: str
    columns: tuple[Column, ...]
    parent: str | None
    has_status: bool
    reqs: tuple[Requirement, ...]

    @property
    def fk(self) -> str | None:
        return f"{self.parent}_id" if self.parent else None

    @property
    def camel(self) -> str:
        return "".join(part.capitalize() for part in self.ident.split("_")) or "Item"

    @property
    def display(self) -> Column | None:
        """The first required str column, else the first str/text column, else the first column."""
        for pick in (lambda c: c.type == "str" and c.required, lambda c: c.type in ("str", "text"),
                     lambda c: True):
            found = next((c for c in self.columns if pick(c)), None)
            if found:
                return found
        return None

    def req_ids(self, *caps: str) -> tuple[str, ...]:
        """REQ ids of this entity with one of `caps`; all of its REQ ids when none match."""
        chosen = tuple(r.id for r in self.reqs if r.capability in caps)
        return chosen or tuple(r.id for r in self.reqs)


@dataclass(frozen=True)
class PageRoute:
    route: str
    name: str
    entity: str | None


@dataclass(frozen=True)
class AppModel:
    """The generator's view of a spec."""

    title: str
    auth: bool
    entities: tuple[Entity, ...]
    pages: tuple[PageRoute, ...]
    supported: tuple[Requirement, ...]
    unsupported: tuple[Requirement, ...]

    def entity(self, ident: str) -> Entity:
        return next(e for e in self.entities if e.ident == ident)

    def ids(self, *caps: str) -> tuple[str, ...]:
        return tuple(r.id for r in self.supported if r.capability in caps)

    @property
    def has_dashboard(self) -> bool:
        return bool(self.ids("dashboard"))

    @property
    def entity_req_ids(self) -> tuple[str, ...]:
        wanted = {r.id for e in self.entities for r in e.reqs}
        return tuple(r.id for r in self.supported if r.id in wanted)

    @property
    def first_supported(self) -> tuple[str, ...]:
        return (self.supported[0].id,) if self.supported else ()

    def lineage(self, ident: str) -> list[Entity]:
        """The entity's ancestors, root first, then the entity itself."""
        chain = [self.entity(ident)]
        while chain[0].parent:
            chain.insert(0, self.entity(chain[0].parent))
        return chain


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
    entities = {}
    for (ident, source), plural_ident in zip(raw.items(), plurals):
        name = _text(source.name) or ident
        entities[ident] = Entity(
            ident=ident, name=name, plural=_text(source.plural) or name,
            plural_ident=plural_ident,
            slug=plural_ident.replace("_", "-"),
            columns=_columns(source.fields, parents.get(ident)), parent=parents.get(ident),
            has_status=source.has_status or ident in status_idents,
            reqs=tuple(entity_reqs[ident]))
    ordered = tuple(entities[i] for i in _parent_first(list(raw), parents))
    auth = spec.auth or any(r.capability == "auth" for r in supported)
    has_dashboard = any(r.capability == "dashboard" for r in supported)
    return AppModel(
        title=_text(spec.title) or "Generated app", auth=auth, entities=ordered,
        pages=_page_routes(spec, set(raw), auth, has_dashboard),
        supported=tuple(supported), unsupported=tuple(unsupported))


def _text(text: str | None) -> str:
    """Display text without control characters or lone surrogates (they cannot be rendered)."""
    kept = (" " if unicodedata.category(ch) == "Cc" else ch for ch in text or ""
            if unicodedata.category(ch) != "Cs")
    return " ".join("".join(kept).split())


def _plural_name(entity: Any) -> str:
    plural = entity.plural or entity.name or entity.ident
    return f"{plural} items" if py_ident(plural) == "complete" else plural


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


def _parent_first(order: list[str], parents: dict[str, str]) -> list[str]:
    out: list[str] = []

    def visit(ident: str) -> None:
        if ident in out:
            return
        if ident in parents:
            visit(parents[ident])
        out.append(ident)

    for ident in order:
        visit(ident)
    return out


def _columns(fields: list[Any], parent: str | None) -> tuple[Column, ...]:
    taken = set(_GENERATED_COLUMNS) | ({f"{parent}_id"} if parent else set())
    out = []
    for field in fields:
        ident = py_ident(field.ident or field.name)
        if ident in taken:
            continue
        taken.add(ident)
        out.append(Column(ident=ident, label=_text(field.name) or ident, type=field.type,
                          required=field.required))
    return tuple(out)


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
                out.append(PageRoute(route=candidate, name=_text(page.name) or candidate, entity=entity))
                break
    return tuple(out)


def _clean_route(route: str) -> str:
    """Lowercase ASCII segments of letters, digits and hyphens: "/My Tasks/" -> "/my-tasks"."""
    parts = (re.sub(r"[^0-9a-z]+", "-", ascii_fold(p).lower()).strip("-")
             for p in (route or "").split("/"))
    return "/" + "/".join(p for p in parts if p)


# ---- sample values shared by the generated tests and the runtime probes -------------------------

_SAMPLES: dict[str, tuple[Any, Any]] = {
    "str": ("Sample text", "Changed text"),
    "text": ("A longer sample description.", "A changed description."),
    "int": (7, 8),
    "float": (1.5, 2.25),
    "bool": (True, False),
    "date": ("2024-01-02", "2024-02-03"),
    "datetime": ("2024-01-02T03:04:05", "2024-02-03T04:05:06"),
}


def sample(column: Column, variant: int = 0) -> Any:
    """A valid JSON value for `column` (variant 1 differs from variant 0)."""
    return _SAMPLES[column.type][variant]


def body(entity: Entity, full: bool = True) -> dict[str, Any]:
    """A valid create body without the parent FK: every column, or only the required ones."""
    return {c.ident: sample(c) for c in entity.columns if full or c.required}
