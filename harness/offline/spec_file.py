"""`builder new --spec app.toml`: an AppSpec written by hand, built exactly as written.

    title = "Tennis club"
    auth = true                    # accounts + per-user ownership
    login = "email"                # accounts sign in with an e-mail address (default "username")
    dashboard = true
    language = "en"                # or "vi"

    [[entities]]
    name = "court"
    fields = [{ name = "name", required = true }, { name = "surface", kind = "enum",
               values = ["clay", "grass"] }]
    features = ["search", { kind = "filter", fields = ["surface"] }]

    [[entities]]
    name = "booking"
    parent = "court"               # a foreign key; on_parent_delete = "restrict" | "cascade"
    workflow = ["requested", "confirmed", "done"]   # or has_status = true: open -> done

A field's `ident` (optional) is its JSON/SQL name when it is not the name's snake_case.

A field's kind defaults to what its name implies (`kind_for_name`); `ref = "<entity>"` makes it
a reference. Every error names the file, the line and the key, in one line (SpecFileError).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, get_args

from harness.errors import InputError
from harness.models.spec import (
    AppSpec, Clause, DataEntity, EntityField, Feature, FeatureKind, FieldKind, Page, Requirement,
)
from harness.offline import spec_limits as limits
from harness.offline.features import REQ_TEXTS, can_build, req_words
from harness.offline.field_kinds import KINDS, NUMBER_KINDS, UNIQUE_KINDS, kind_for_name
from harness.offline import requirement_words as words
from harness.offline.generator.naming import field_ident, py_ident, slug
from harness.offline.spec_links import check_many, link_items, read_many
from harness.offline.spec_record_tools import TOOL_KEYS, check_soft_delete, read_record_tools, tool_items
from harness.offline.spec_stamp import STAMP_KEY, read_stamps, stamp_items
from harness.constructs.spec_computed import computed_items, read_computed
from harness.offline.spec_access import (
    ACCESS_AUTH_ITEM, ENTITY_KEYS, access_items, account_items, check_access, check_public_features, read_auth,
    read_entity_access,
)
from harness.validation.spec_validator import validate_spec

DECLARED_NOT_BUILT = "listed under not_built in the spec file"   # a clause the spec declared not built


_TOP = {"title", "auth", "login", "dashboard", "language", "entities", "pages", "html", "not_built"}
_ENTITY = {"name", "plural", "fields", "parent", "on_parent_delete", "workflow", "transitions",
           "features", "has_status", "many", "computed", STAMP_KEY, *ENTITY_KEYS, *TOOL_KEYS}
_FIELD = {"name", "kind", "required", "values", "min", "max", "ref", "unique", "ident"}
_FEATURE = {"kind", "fields", "options"}


_SOURCE = {"relation": "parent", "complete": "has_status"}
_NOT_BUILT_REASON = re.compile(r"\s*\(not built: .*\)$")


class SpecFileError(InputError):
    """The spec file cannot be read or is not a valid spec; the message names line and key."""


class _Reader:
    """Validates the parsed TOML against the spec-file schema, naming where each problem is."""

    def __init__(self, path: Path, text: str):
        self.path, self.lines = path, text.splitlines()
        self.headers = [i for i, line in enumerate(self.lines) if re.match(r"\s*\[\[\s*entities\s*\]\]", line)]

    def fail(self, where: str, message: str, key: str, entity: int | None = None, value: Any = None) -> None:
        raise SpecFileError(f"{self.path}:{self._line(key, entity, value)}: {where}: {message}")

    def _line(self, key: str, entity: int | None, value: Any) -> int:
        """The first line (from the entity's [[entities]] header on) holding `key` (and `value`)."""
        start = self.headers[entity] if entity is not None and entity < len(self.headers) else 0
        last = key.split(".")[-1].split("[")[0]
        pattern = re.compile(rf"(^|[\s{{,]){re.escape(last)}\s*=|^\s*\[\[?\s*{re.escape(last)}\s*\]")
        shown = repr(value).strip("'\"") if isinstance(value, (str, int, float)) else None
        for strict in (True, False):
            for i in range(start, len(self.lines)):
                line = self.lines[i]
                if pattern.search(line) and (not strict or shown is None or shown in line):
                    return i + 1
        return start + 1

    def check_keys(self, table: dict, allowed: set[str], where: str, entity: int | None) -> None:
        for key in table:
            if key not in allowed:
                self.fail(f"{where}.{key}" if where else key,
                          f"unknown key (allowed: {', '.join(sorted(allowed))})", key, entity)

    def typed(self, table: dict, key: str, kind: type | tuple, where: str, entity: int | None) -> Any:
        value = table.get(key)
        if value is not None and not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.fail(f"{where}.{key}" if where else key, f"must be {names.replace('str', 'a string')}",
                      key, entity, value)
        return value


def load_spec_file(path: str | Path) -> AppSpec:
    """The AppSpec the file describes; SpecFileError (one line: file:line: key: problem) otherwise."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            raw = fh.read(limits.MAX_BYTES + 1)
        if len(raw) > limits.MAX_BYTES:
            raise SpecFileError(f"{path}: the spec file is larger than {limits.MAX_BYTES // 1024} KB")
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SpecFileError(f"cannot read spec file {path}: {why}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecFileError(_toml_error(path, exc)) from None
    except RecursionError:
        raise SpecFileError(f"{path}: tables or arrays nest more than {limits.MAX_DEPTH} deep") from None
    if limits.depth(data) > limits.MAX_DEPTH:
        raise SpecFileError(f"{path}: tables or arrays nest more than {limits.MAX_DEPTH} deep")
    reader = _Reader(path, text)
    reader.check_keys(data, _TOP, "", None)
    entities_raw = reader.typed(data, "entities", list, "", None) or []
    if not entities_raw:
        reader.fail("entities", "the spec needs at least one [[entities]] table", "entities")
    if len(entities_raw) > limits.MAX_ENTITIES:
        reader.fail("entities", f"{len(entities_raw)} entities; at most {limits.MAX_ENTITIES}", "entities",
                    limits.MAX_ENTITIES)
    entities = [_entity(reader, raw, i) for i, raw in enumerate(entities_raw)]
    _check_links(reader, entities)
    check_many(reader, [e for e, _ in entities])
    access = read_auth(reader, data)
    check_access(reader, [e for e, _ in entities], access)
    check_public_features(reader, entities)
    check_soft_delete(reader, [e for e, _ in entities])
    spec = AppSpec(title=reader.typed(data, "title", str, "", None) or "Generated app",
                   auth=access["auth"], login=access["login"], roles=access["roles"],
                   change_password=access["change_password"],
                   language=_language(reader, data), data_model=[e for e, _ in entities],
                   features=[f for _, fs in entities for f in fs],
                   html=reader.typed(data, "html", bool, "", None) is not False)
    pages = reader.typed(data, "pages", bool, "", None)
    return _with_requirements(reader, spec, bool(reader.typed(data, "dashboard", bool, "", None)),
                              pages is not False, _not_built(reader, data))


def _not_built(reader: _Reader, data: dict) -> list[str]:
    """`not_built = ["…"]`: asks the app does not do; each one stays a failing requirement."""
    asks = reader.typed(data, "not_built", list, "", None) or []
    if len(asks) > limits.MAX_NOT_BUILT:
        reader.fail("not_built", f"{len(asks)} entries; at most {limits.MAX_NOT_BUILT}", "not_built")
    for ask in asks:
        if not isinstance(ask, str) or not ask.strip():
            reader.fail("not_built", "must be a list of non-empty strings (the asks not built)", "not_built")
    seen: dict[str, str] = {}   # an ask listed twice is one ask (two requirements of one text are refused)
    for ask in (" ".join(a.split()) for a in asks):
        seen.setdefault(ask.lower(), ask)
    return list(seen.values())


def _toml_error(path: Path, exc: Exception) -> str:
    """`FILE:LINE: not valid TOML: problem` (tomllib puts the position at the end of its message)."""
    text = str(exc)
    at = re.search(r"\s*\(at line (\d+), column \d+\)$", text)
    if at:
        return f"{path}:{at.group(1)}: not valid TOML: {text[:at.start()]}"
    return f"{path}: not valid TOML: {text}"


def _language(reader: _Reader, data: dict) -> str:
    language = reader.typed(data, "language", str, "", None) or "en"
    if language not in ("en", "vi"):
        reader.fail("language", f"must be \"en\" or \"vi\", not {language!r}", "language", None, language)
    return language


def _entity(reader: _Reader, raw: Any, i: int) -> tuple[DataEntity, list[Feature]]:
    where = f"entities[{i + 1}]"
    if not isinstance(raw, dict):
        reader.fail(where, "must be a table", "entities")
    reader.check_keys(raw, _ENTITY, where, i)
    name = (reader.typed(raw, "name", str, where, i) or "").strip()
    if not name:
        reader.fail(f"{where}.name", "every entity needs a name", "name", i)
    ident = py_ident(name)
    fields_raw = reader.typed(raw, "fields", list, where, i) or []
    if len(fields_raw) > limits.MAX_FIELDS:
        reader.fail(f"{where}.fields", f"{len(fields_raw)} fields; at most {limits.MAX_FIELDS} per entity", "fields", i)
    fields = [_field(reader, f, i, f"{where}.fields[{j + 1}]") for j, f in enumerate(fields_raw)]
    on_delete = reader.typed(raw, "on_parent_delete", str, where, i) or "restrict"
    if on_delete not in ("restrict", "cascade"):
        reader.fail(f"{where}.on_parent_delete", "must be \"restrict\" or \"cascade\"",
                    "on_parent_delete", i, on_delete)
    workflow = [str(s) for s in reader.typed(raw, "workflow", list, where, i) or []]
    transitions = reader.typed(raw, "transitions", dict, where, i) or {}
    for state, moves in transitions.items():
        if state not in workflow or not isinstance(moves, list) or any(m not in workflow for m in moves):
            reader.fail(f"{where}.transitions.{state}", "states must come from the workflow list",
                        state, i)
    entity = DataEntity(name=name, plural=reader.typed(raw, "plural", str, where, i) or f"{name}s",
                        ident=ident, fields=fields, parent=reader.typed(raw, "parent", str, where, i),
                        has_status=bool(reader.typed(raw, "has_status", bool, where, i)) and not workflow,
                        on_parent_delete=on_delete, workflow=workflow,
                        transitions={k: [str(m) for m in v] for k, v in transitions.items()},
                        many=read_many(reader, raw, i, where), **read_entity_access(reader, raw, i, where),
                        stamps=read_stamps(reader, raw, i, where, fields, workflow),
                        **read_record_tools(reader, raw, i, where, fields))
    entity.computed = read_computed(reader, raw, i, where, fields, bool(workflow or entity.has_status),
                                    entity.many)
    features = [_feature(reader, f, i, f"{where}.features[{j + 1}]", ident)
                for j, f in enumerate(reader.typed(raw, "features", list, where, i) or [])]
    for j, f in enumerate(features):   # the generator builds one of each kind (analyse._features)
        if f.kind in [g.kind for g in features[:j]]:
            reader.fail(f"{where}.features[{j + 1}]", f"a second {f.kind!r} on {entity.plural}: one {f.kind} per "
                        "entity is built; merge them into one or drop one", "features", i, f.kind)
    return entity, features


BOUNDED_KINDS = (*NUMBER_KINDS, "rating")


def _field(reader: _Reader, raw: Any, i: int, where: str) -> EntityField:
    if isinstance(raw, str):
        raw = {"name": raw}
    if not isinstance(raw, dict):
        reader.fail(where, "must be a field name or a table { name = ..., kind = ... }", "fields", i)
    reader.check_keys(raw, _FIELD, where, i)
    name = (reader.typed(raw, "name", str, where, i) or "").strip()
    if not name:
        reader.fail(f"{where}.name", "every field needs a name", "name", i)
    ref = reader.typed(raw, "ref", str, where, i)
    kind = reader.typed(raw, "kind", str, where, i) or ("reference" if ref else
                                                         "enum" if raw.get("values") else kind_for_name(name))
    if kind not in get_args(FieldKind):
        reader.fail(f"{where}.kind", f"unknown kind {kind!r} (known: {', '.join(KINDS)})", "kind", i, kind)
    values = [str(v) for v in reader.typed(raw, "values", list, where, i) or []]
    if kind == "enum" and len(values) < 2:
        reader.fail(f"{where}.values", "an enum field needs at least two values", "values", i)
    if kind == "reference" and not ref:
        reader.fail(f"{where}.ref", "a reference field needs ref = \"<entity name>\"", "kind", i, kind)
    low, high = _bounds(reader, raw, kind, i, where)
    unique = bool(reader.typed(raw, "unique", bool, where, i))
    if unique and kind not in UNIQUE_KINDS:
        reader.fail(f"{where}.unique", f"a {kind} field cannot be unique (unique takes {', '.join(UNIQUE_KINDS)} "
                    "fields)", "unique", i, unique)
    ident = field_ident(reader.typed(raw, "ident", str, where, i) or name)
    return EntityField(name=name, ident=ident, type=KINDS[kind].storage,
                       required=bool(reader.typed(raw, "required", bool, where, i)), kind=kind,
                       enum_values=values, min_value=low, max_value=high,
                       ref=py_ident(ref) if ref else None, unique=unique)


def _bounds(reader: _Reader, raw: dict, kind: str, i: int, where: str) -> tuple[float | None, float | None]:
    """A field's `min`/`max`: only a number kind honours them, so any other kind is refused, as is a
    range no value fits (the generated API would refuse every value)."""
    low, high = (reader.typed(raw, k, (int, float), where, i) for k in ("min", "max"))
    given = [(k, v) for k, v in (("min", low), ("max", high)) if v is not None]
    for key, value in given:
        if isinstance(value, bool) or value != value or abs(value) > 1e15:
            reader.fail(f"{where}.{key}", "must be a number between -1e15 and 1e15", key, i, value)
        if kind not in BOUNDED_KINDS:
            reader.fail(f"{where}.{key}", f"a {kind} field has no {key}; only {', '.join(BOUNDED_KINDS)} "
                        "fields take min/max", key, i, value)
        if kind == "integer" and not float(value).is_integer():
            reader.fail(f"{where}.{key}", f"an {kind} field's {key} must be a whole number", key, i, value)
    floor = 0 if kind in ("integer", "money") and low is None else low
    if kind in NUMBER_KINDS and floor is not None and high is not None and floor > high:
        reader.fail(f"{where}.max", f"max {high} is below {'min' if low is not None else 'the kind floor'} "
                    f"{floor}: no value fits", "max", i, high)
    return low, high


def _feature(reader: _Reader, raw: Any, i: int, where: str, entity: str) -> Feature:
    if isinstance(raw, str):
        raw = {"kind": raw}
    if not isinstance(raw, dict):
        reader.fail(where, "must be a feature name or a table { kind = ..., fields = [...] }", "features", i)
    reader.check_keys(raw, _FEATURE, where, i)
    kind = reader.typed(raw, "kind", str, where, i)
    if kind not in get_args(FeatureKind):
        reader.fail(f"{where}.kind", f"unknown feature {kind!r} (known: {', '.join(get_args(FeatureKind))})",
                    "features", i, kind)
    fields = [field_ident(str(f)) for f in reader.typed(raw, "fields", list, where, i) or []]
    return Feature(kind=kind, entity=entity, fields=fields,
                   options=reader.typed(raw, "options", dict, where, i) or {})


def _check_links(reader: _Reader, entities: list[tuple[DataEntity, list[Feature]]]) -> None:
    idents = {e.ident for e, _ in entities}
    seen: dict[str, int] = {}
    for i, (e, _) in enumerate(entities):
        if e.ident in seen:
            reader.fail(f"entities[{i + 1}].name", f"a second entity named {e.name!r} (entities[{seen[e.ident] + 1}])",
                        "name", i, e.name)
        seen[e.ident] = i
        if e.parent is not None:
            if py_ident(e.parent) not in idents or py_ident(e.parent) == e.ident:
                reader.fail(f"entities[{i + 1}].parent", f"no other entity named {e.parent!r}", "parent", i, e.parent)
            e.parent = py_ident(e.parent)
        for f in e.fields:
            if f.ref is not None and f.ref not in idents:
                reader.fail(f"entities[{i + 1}].{f.name}.ref", f"no entity named {f.ref!r}", "ref", i, f.ref)
    cycle = limits.parent_cycle({e.ident: e.parent for e, _ in entities})
    if cycle:
        i = seen[cycle[0]]
        reader.fail(f"entities[{i + 1}].parent", f"parent cycle: {' -> '.join(cycle)} (a record cannot belong, "
                    f"through its parents, to itself)", "parent", i, entities[i][0].parent)


def _with_requirements(reader: _Reader, spec: AppSpec, dashboard: bool, pages: bool,
                       not_built: list[str]) -> AppSpec:
    def unbuildable(i: int, j: int, kind: str, reason: str) -> None:
        reader.fail(f"entities[{i + 1}].features[{j + 1}]", reason, "features", i, kind)

    built = with_requirements(spec, dashboard, unbuildable, pages=pages, not_built=not_built)
    errors = validate_spec(built)
    if errors:
        raise SpecFileError(f"{reader.path}: the spec is not valid: {errors[0]}")
    return built


def with_requirements(spec: AppSpec, dashboard: bool, unbuildable=None, pages: bool = True,
                      not_built: list[str] = ()) -> AppSpec:
    """`spec` with requirements, clauses, pages and acceptance criteria for everything it asks for.
    A feature the generator cannot build is reported to `unbuildable(entity#, feature#, kind,
    reason)` (a spec file error), or dropped when no callback is given. `pages=False`: no HTML
    page per entity (the index page only); `spec.html` False: no page at all (a JSON API only); each
    `not_built` ask is an `unsupported` requirement."""
    # The parser's order and words (harness/offline/requirement_words.py), so a run's draft rebuilds
    # the run's requirements; each item is (capability, entity, text, acceptance, where in the file).
    items: list[tuple[str, str | None, str, str, str]] = []
    by_ident = {e.ident: e for e in spec.data_model}
    plain = not (spec.roles or any(e.shared or e.manage or e.assigned for e in spec.data_model))
    if spec.auth:
        items.append((*words.auth_item(spec.login == "email"), "auth = true") if plain
                     else (*ACCESS_AUTH_ITEM, "auth = true"))
    items += [(*item, item[3]) for item in account_items(spec)]
    for i, e in enumerate(spec.data_model):
        items += [(*item, f"entity {e.name}" if item[0] == "crud" else f"{e.name}.{_SOURCE[item[0]]}")
                  for item in words.entity_items(e, by_ident, spec.auth)]
        if e.workflow:
            items.append((*words.workflow_item(e), f"{e.name}.workflow"))
        for j, f in enumerate(x for x in spec.features if x.entity == e.ident):
            ok, reason = can_build(f, spec)
            if not ok:
                if unbuildable:
                    unbuildable(i, j, f.kind, reason)
                continue
            fallback = REQ_TEXTS[f.kind].format(plural=e.plural, name=e.name, **req_words(f, e, spec))
            items.append((*words.feature_item(f, e, fallback), f"{e.name}.features {f.kind}"))
        items += [(*item, item[3]) for item in access_items(e) + link_items(e, spec.data_model)
                  + tool_items(e, spec.html) + computed_items(e) + stamp_items(e)]
    if dashboard:
        items.append((*words.dashboard_item(spec.data_model, spec.auth, spec.html), "dashboard = true"))
    pages = pages and spec.html
    # "/", "/login" and "/dashboard" are served by the app itself; listed, they are checked as pages
    shown = [Page(name="home", route="/")] + ([Page(name="login", route="/login")] if pages and spec.auth else []) + (
        [Page(name="dashboard", route="/dashboard")] if dashboard else [])
    shown = shown if spec.html else []
    entity_pages = [(e, f"/{slug(e.plural)}") for e in spec.data_model] if pages else []
    shown += [Page(name=e.plural.capitalize(), route=route, entity=e.ident) for e, route in entity_pages]
    if pages:
        items.append((*words.pages_item(([("login", "/login")] if spec.auth else [])
                                        + [(e.plural, route) for e, route in entity_pages]), "the spec file"))
    items.append((*(words.HEALTH if spec.html else words.HEALTH_API), "the spec file"))
    items += [("unsupported", None, ask, f"{_NOT_BUILT_REASON.sub('', ask)} works as requested, proven by a "
               "passing test", "not_built") for ask in not_built]
    reqs = [Requirement(id=f"REQ-{n:03d}", text=text, capability=cap, entity=ent, acceptance=acceptance)
            for n, (cap, ent, text, acceptance, _src) in enumerate(items, start=1)]
    clauses = [Clause(id=f"C-{n:03d}", text=r.text, status="not_built", reqs=[r.id],
                      reason=DECLARED_NOT_BUILT) if r.capability == "unsupported" else
               Clause(id=f"C-{n:03d}", text=src, status="mapped", reqs=[r.id])
               for n, (r, (*_, src)) in enumerate(zip(reqs, items), start=1)]
    return spec.model_copy(update={
        "requirements": reqs, "clauses": clauses, "pages": shown, "must_have": [r.text for r in reqs],
        "acceptance_criteria": [f"{r.id}: {r.text}" for r in reqs],
        "notes": ["built from a hand-written spec file"]})


def spec_for_args(request: str | None, spec_path: str | None) -> tuple[AppSpec | None, str]:
    """(spec, request text) for `builder new [REQUEST] [--spec FILE]`: exactly one of the two."""
    if spec_path and request:
        raise InputError("give either a request or --spec FILE, not both")
    if spec_path:
        spec = load_spec_file(spec_path)
        return spec, f"spec file {Path(spec_path).name}: {spec.title}"
    if not request:
        raise InputError('say what to build: builder new "<request>" (or builder new --spec app.toml)')
    return None, request
