"""What the generator derives from an AppSpec: entities in parent-first order with their columns,
URL segments and requirements, the page routes, and which requirements the app can implement.

Everything here is pure and deterministic (spec order, never set order), so the same spec always
yields the same files.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from harness.errors import SpecError
from harness.models.spec import AppSpec, Requirement
from harness.offline.features import can_build
from harness.offline.field_kinds import KINDS, Bounds, KindEntry, kind_of_type
from harness.offline.generator.naming import ascii_fold, field_ident, py_ident, python_unsafe, unique_idents

# Kinds a `unique` flag is honoured for (the generated tests can make distinct values of them).
UNIQUE_KINDS = ("short_text", "long_text", "email", "url", "phone", "integer")
ENTITY_CAPS = ("create", "list", "complete", "crud", "relation", "other", "feature", "workflow")
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
    kind: str = "short_text"
    values: tuple[str, ...] = ()     # enum values
    lo: float | None = None          # rating / number range
    hi: float | None = None
    ref: str | None = None           # kind "reference": ident of the referenced entity
    end: bool = False                # the end of the entity's date/time range (samples come later)
    unique: bool = False             # no two records share a value (409)

    @property
    def entry(self) -> KindEntry:
        return KINDS[self.kind]

    @property
    def bounds(self) -> Bounds:
        return Bounds(values=self.values, lo=self.lo, hi=self.hi)

    @property
    def is_text(self) -> bool:
        return self.kind in ("short_text", "long_text", "email", "phone", "url")

    @property
    def needs_alias(self) -> bool:
        """True when the name would shadow a BaseModel attribute, a keyword or a builtin as Python
        code (the model then has the attribute `<ident>_` with the user's name as its alias)."""
        return self.ident in _BASEMODEL_NAMES or self.ident.startswith("model_") or python_unsafe(self.ident)

    @property
    def attr(self) -> str:
        return f"{self.ident}_" if self.needs_alias else self.ident


@dataclass(frozen=True)
class Slot:
    """The date/time range of a record: [start, end) (start == end: a single slot); `same` are
    the columns two records must share to clash (the booked resource, the day)."""

    start: str
    end: str
    same: tuple[str, ...]
    label: str


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
    states: tuple[str, ...] = ("open", "done")            # status values, first is the initial one
    transitions: tuple[tuple[str, tuple[str, ...]], ...] = ()   # state -> allowed next states
    workflow: bool = False                                # states came from the spec's workflow
    cascade: bool = False                                 # deleting the parent deletes these rows
    features: tuple[tuple[str, dict[str, Any]], ...] = ()  # (feature kind, options) built here
    slot: Slot | None = None                              # its date/time range, when it has one

    def has(self, feature: str) -> bool:
        return any(kind == feature for kind, _ in self.features)

    def feature(self, feature: str) -> dict[str, Any]:
        return next((opts for kind, opts in self.features if kind == feature), {})

    @property
    def refs(self) -> tuple[Column, ...]:
        """The reference columns (foreign keys to other entities besides the parent)."""
        return tuple(c for c in self.columns if c.kind == "reference")

    @property
    def plain(self) -> tuple[Column, ...]:
        """The columns whose values are constants (everything but references)."""
        return tuple(c for c in self.columns if c.kind != "reference")

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
    language: str = "en"

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
    refs = _effective_refs(raw, parents)
    entities = {}
    for (ident, source), plural_ident in zip(raw.items(), plurals):
        name = _text(source.name) or ident
        states = _states(source)
        has_status = source.has_status or ident in status_idents or bool(states)
        columns = _columns(source.fields, parents.get(ident), refs.get(ident, {}), has_status)
        slot = _slot(columns, f"{parents[ident]}_id" if ident in parents else None)
        columns = tuple(replace(c, end=True) if slot and c.ident == slot.end != slot.start else c
                        for c in columns)
        entities[ident] = Entity(
            ident=ident, name=name, plural=_text(source.plural) or name,
            plural_ident=plural_ident,
            slug=plural_ident.replace("_", "-"),
            columns=columns, parent=parents.get(ident), slot=slot,
            has_status=has_status,
            reqs=tuple(entity_reqs[ident]), states=states or ("open", "done"),
            transitions=_transitions(source, states), workflow=bool(states),
            cascade=source.on_parent_delete == "cascade",
            features=_features(spec, ident))
    deps = {i: ([parents[i]] if i in parents else []) + sorted(set(refs.get(i, {}).values()))
            for i in raw}
    ordered = tuple(entities[i] for i in _parent_first(list(raw), deps))
    auth = spec.auth or any(r.capability == "auth" for r in supported)
    has_dashboard = any(r.capability == "dashboard" for r in supported)
    return AppModel(
        title=_text(spec.title) or "Generated app", auth=auth, entities=ordered,
        pages=_page_routes(spec, set(raw), auth, has_dashboard),
        supported=tuple(supported), unsupported=tuple(unsupported), language=spec.language)



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

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                todo.extend(depends.get(node, ()))
        return False

    out: dict[str, dict[str, str]] = {}
    for ident, entity in raw.items():
        for field in entity.fields:
            target = py_ident(field.ref) if field.kind == "reference" and field.ref else None
            if target not in raw or target == ident or target == parents.get(ident):
                continue
            if reaches(target, ident):
                continue  # a reference cycle: this field stays a plain number
            depends[ident].add(target)
            out.setdefault(ident, {})[field_ident(field.ident or field.name)] = target
    return out


def _columns(fields: list[Any], parent: str | None, refs: dict[str, str],
             has_status: bool) -> tuple[Column, ...]:
    """The user's columns; a name the generator's own columns take is dropped ("status" only when
    the entity has the generated status column)."""
    taken = (set(_GENERATED_COLUMNS) - ({"status"} if not has_status else set())
             | ({f"{parent}_id"} if parent else set()))
    out = []
    for field in fields:
        ident = field_ident(field.ident or field.name)
        if ident in taken or _is_status(field):
            continue
        taken.add(ident)
        kind = field.kind or kind_of_type(field.type)
        values = tuple(dict.fromkeys(_text(v) for v in field.enum_values if _text(v)))
        if kind == "reference" and ident not in refs or kind == "enum" and not values:
            kind = "integer" if kind == "reference" else "short_text"
        lo, hi = field.min_value, field.max_value
        if kind == "rating":
            lo, hi = _rating_range(lo, hi)
        out.append(Column(ident=ident, label=_text(field.name) or ident,
                          type=KINDS[kind].storage, required=field.required, kind=kind,
                          values=values[:50] if kind == "enum" else (), lo=lo, hi=hi,
                          ref=refs.get(ident), unique=field.unique and kind in UNIQUE_KINDS))
    return tuple(out)


_STARTS = {"start", "starts", "from", "begin", "begins", "in", "open", "opens", "arrival", "pickup"}
_ENDS = {"end", "ends", "to", "until", "finish", "out", "close", "closes", "departure", "return"}


def _slot(columns: tuple[Column, ...], fk: str | None) -> Slot | None:
    """The record's date/time range: start/end columns by name (start time, end time, clock in,
    clock out), else the first two time columns, else the date columns."""
    times = [c for c in columns if c.kind in ("time", "datetime")]
    dates = [c for c in columns if c.kind == "date"]
    cols = times or dates
    if not cols:
        return None

    def named(pool: list[Column], words: set[str]) -> Column | None:
        return next((c for c in pool if words & set(c.ident.split("_"))), None)

    start = named(cols, _STARTS) or cols[0]
    rest = [c for c in cols if c is not start]
    end = named(rest, _ENDS) or (rest[0] if rest and times else None) or start
    if end is not start and (named([end], _STARTS) or end.kind != start.kind):
        end = start
    day = dates[0].ident if times and dates and start.kind == "time" else None
    same = tuple(x for x in [fk, *(c.ident for c in columns if c.kind == "reference"), day] if x)
    return Slot(start=start.ident, end=end.ident, same=same,
                label="time slot" if times else "date")


def _rating_range(lo: float | None, hi: float | None) -> tuple[int, int]:
    low = int(lo) if lo is not None and abs(lo) < 10**6 else 1
    high = int(hi) if hi is not None and abs(hi) < 10**6 else max(low, 5)
    return (low, high) if low <= high else (high, low)


def _states(source: Any) -> tuple[str, ...]:
    """Workflow states in order, de-duplicated; () when the entity has no workflow. A `status`
    enum field without a workflow gives the states too (then any move is allowed)."""
    states = tuple(dict.fromkeys(_text(s) for s in source.workflow if _text(s)))
    if not states:
        field = next((f for f in source.fields if _is_status(f)), None)
        states = tuple(dict.fromkeys(_text(v) for v in field.enum_values if _text(v))) if field else ()
    return states[:20] if len(states) >= 2 else ()


def _is_status(field: Any) -> bool:
    """A spec field that is the record's status (it becomes the status column, not a field)."""
    return field_ident(field.ident or field.name) in ("status", "status_item") and bool(field.enum_values)


def _free_states(source: Any) -> bool:
    return not source.workflow and not source.transitions


def _transitions(source: Any, states: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Allowed moves per state: the spec's, else each state to the next; open/done both ways."""
    if not states:
        return (("open", ("done",)), ("done", ("open",)))
    if _free_states(source):
        return tuple((s, tuple(x for x in states if x != s)) for s in states)
    given = {_text(k): [_text(v) for v in vs] for k, vs in source.transitions.items()}
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
                out.append(PageRoute(route=candidate, name=_text(page.name) or candidate, entity=entity))
                break
    return tuple(out)


def _clean_route(route: str) -> str:
    """Lowercase ASCII segments of letters, digits and hyphens: "/My Tasks/" -> "/my-tasks"."""
    parts = (re.sub(r"[^0-9a-z]+", "-", ascii_fold(p).lower()).strip("-")
             for p in (route or "").split("/"))
    return "/" + "/".join(p for p in parts if p)


# ---- sample values shared by the generated tests and the runtime probes -------------------------

def sample(column: Column, variant: int = 0) -> Any:
    """A valid JSON value for `column` (variant 1 differs from variant 0); None for references."""
    return column.entry.sample(column.bounds, variant, end=column.end)


def distinct(column: Column, counter: str) -> str:
    """An expression: the column's sample made distinct by the integer expression `counter`."""
    value = sample(column)
    if column.kind == "integer":
        return f"{value!r} + {counter}"
    if column.kind == "email":
        return f'"u" + str({counter}) + "." + {value!r}'
    if column.kind == "url":
        return f'{value!r} + "/" + str({counter})'
    if column.kind == "phone":
        return f"{value!r} + str({counter})"
    return f'{value!r} + " " + str({counter})'


def body(entity: Entity, full: bool = True) -> dict[str, Any]:
    """A valid create body without the parent FK and references: every constant column, or only
    the required ones."""
    return {c.ident: sample(c) for c in entity.plain if full or c.required}
