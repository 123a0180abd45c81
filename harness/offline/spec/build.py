"""Assemble an AppSpec from what `rules` parsed: entities, requirements, pages, stack, notes.

Requirement order (ids REQ-001..N follow it):
auth -> per entity, parents before children: crud, relation, complete -> dashboard -> pages ->
health -> unsupported. A pure Todo request gets the fixed four: create, list, complete, health.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import SimpleNamespace

from harness.constructs.parent_key import parent_key
from harness.offline.spec import lexicon as lx
from harness.offline.generator.naming import field_ident, py_ident, slug
from harness.models.spec import AppSpec, DataEntity, EntityField, Page, Requirement, Stack
from harness.offline.spec.coverage import (clause_records, drop_unbuildable_features, entity_extra_reqs,
                                           computed_reqs, feature_models, link_reqs, not_built_reqs)
from harness.offline.requirement_words import HEALTH, HEALTH_API, auth_item, dashboard_item, entity_items, join_words
from harness.offline.spec.fields import FieldItem
from harness.offline.spec.record_fields import kind_in_record, referenced_record
from harness.offline.spec.entity_tools import with_tools
from harness.offline.spec.access import account_roles, needs_accounts, with_access
from harness.offline.spec_access import ACCESS_AUTH_ITEM, access_items, account_items
from harness.offline.spec_stamp import stamp_items
from harness.offline.spec.display_name import display_word, identified_by_links
from harness.offline.spec.implied_fields import implied_fields
from harness.offline.spec.wordsets import word_set

HTML_FRONTEND = "Server-rendered HTML (FastAPI)"
MAX_FIELDS = 20   # per entity; more are ignored with a note
_FIXED_ROUTES = word_set("build.fixed_routes")
_TITLE_STOP = lx.FUNCTION | lx.VERBS | frozenset({"me", "please"})
_EXCLUDED_FIELDS = lx.FIELD_DROP | frozenset({"status", "done", "completed", "complete"})


@dataclass
class Parsed:
    """What the parser (rules) found; `build_spec` turns it into an AppSpec."""

    title_words: list[tuple[str, str]]                              # (normalized, original) per token
    vi: bool
    clauses: list[str] = field(default_factory=list)
    accounts: list = field(default_factory=list)                 # accounting.ClauseAccount per clause
    entities: list[str] = field(default_factory=list)            # singular names, mention order
    plurals: dict[str, str] = field(default_factory=dict)
    fields: dict[str, list[FieldItem]] = field(default_factory=dict)
    field_subjects: list[int] = field(default_factory=list)      # token indices of "X with <fields>"
    object_positions: list[int] = field(default_factory=list)    # token indices a row read as records ("employees write reports")
    positions: list[tuple[int, int, str]] = field(default_factory=list)   # (anchor, head, rule): pass "entity positions"
    relation_claims: list[tuple] = field(default_factory=list)   # (anchor, child, parent, words): "relation phrases", -verbs
    listed_children: list[tuple[int, int]] = field(default_factory=list)   # ("Orders have: ..., items"): (X, item)
    field_clauses: dict[str, list[int]] = field(default_factory=dict)
    parents: dict[str, str] = field(default_factory=dict)
    cascade: set[str] = field(default_factory=set)               # children whose parent's delete removes them
    relation_clauses: dict[str, int] = field(default_factory=dict)
    status: list[str] = field(default_factory=list)
    workflows: dict[str, list[str]] = field(default_factory=dict)
    features: list[tuple[str, str | None, list[str], int]] = field(default_factory=list)
    tools: dict[str, list[str]] = field(default_factory=dict)    # record -> its record tools ("calendar", ...)
    links: list[tuple[str, str]] = field(default_factory=list)   # (record, record) linked many-to-many
    feature_options: dict[tuple[str, str], dict] = field(default_factory=dict)   # (kind, record) -> options
    computed: dict[str, dict[str, str]] = field(default_factory=dict)   # record -> {name: expression}
    stamps: dict[str, dict[str, str]] = field(default_factory=dict)     # record -> {date field label: state}
    overflow: list[str] = field(default_factory=list)            # entities beyond the cap
    entity_rules: dict[str, str] = field(default_factory=dict)   # entity -> the position rule that found it
    unsupported: list[tuple[str, str]] = field(default_factory=list)   # (clause text, reason)
    blocked: list[tuple[int, str]] = field(default_factory=list)   # (clause, why a recognised ask is not built)
    app_name: str = ""                                           # "a tracker called Pennywise"
    auth: bool = False
    roles: list[tuple[str, str]] = field(default_factory=list)   # (account role, its rank): access.py
    access: dict[str, dict] = field(default_factory=dict)        # record -> {"shared"/"assigned": True, "manage"/"view": role}
    asked_in: dict[tuple[str, str], set[int]] = field(default_factory=dict)   # (record, access key) -> the clauses asking it
    change_password: bool = False
    login_email: bool = False                                    # accounts sign in with an e-mail address
    dashboard: bool = False
    pages: bool = False
    web: bool = False
    api: bool = False
    api_only: bool = False                                       # "no frontend", "just a REST API": no HTML
    settings: bool = False
    frameworks: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def build_spec(p: Parsed) -> AppSpec:
    """The AppSpec for a parse result (pure; deterministic)."""
    p.auth = p.auth or needs_accounts(p)
    roles = account_roles(p) if p.auth else []
    entities = [with_access(e, p, roles, p.auth) for e in _entities(p)]
    drop_unbuildable_features(p, entities)
    p.unsupported = not_built_reqs(p)
    if _is_todo(p, entities):
        spec = _todo_spec(p, entities[0])
    else:
        reqs = _requirements(p, entities)
        pages = _pages(p, entities) if entities and not p.api_only else []
        spec = AppSpec(
            app_type="api" if p.api and not p.pages else "web",
            language="vi" if p.vi else "en",
            title=_title(p, entities),
            stack=Stack(frontend=HTML_FRONTEND if p.pages else "FastAPI"),
            auth=p.auth and bool(entities),
            login="email" if p.login_email and p.auth and entities else "username",
            roles=roles if entities else [], change_password=p.change_password and bool(entities),
            pages=pages, html=not p.api_only,
            data_model=entities,
            features=feature_models(p, {e.name: e for e in entities}),
            requirements=[Requirement(id=f"REQ-{n:03d}", text=t, acceptance=a, capability=c, entity=e)
                          for n, (c, e, t, a) in enumerate(reqs, 1)],
            must_have=_must_have(p, entities),
            explicit_non_goals=_non_goals(p),
            acceptance_criteria=[a for _c, _e, _t, a in reqs],
            notes=_notes(p, entities),
        )
    spec.clauses = clause_records(p, spec)
    return spec


# --- entities --------------------------------------------------------------------------------------

def _entities(p: Parsed) -> list[DataEntity]:
    order: list[str] = []

    def visit(name: str) -> None:
        if name not in order:
            if name in p.parents:
                visit(p.parents[name])
            order.append(name)

    for name in p.entities:
        visit(name)
    idents: dict[str, str] = {}
    for name in order:
        ident = py_ident(name)
        n = 2
        while ident in idents.values():
            ident, n = f"{py_ident(name)}_{n}", n + 1
        idents[name] = ident
    return [with_tools(DataEntity(
        name=name, plural=p.plurals[name], ident=idents[name], fields=_fields(p, name, idents),
        parent=idents.get(p.parents.get(name, "")),
        on_parent_delete="cascade" if name in p.cascade and p.parents.get(name) else "restrict",
        has_status=name in p.status and name not in p.workflows   # not when a "status" field lists its values
        and not any(it.words == ["status"] and it.enum_values for it in p.fields.get(name, [])),
        workflow=p.workflows.get(name, []),
        many=[idents[b] for a, b in p.links if a == name and b in idents],
        stamps={field_ident(label): state for label, state in p.stamps.get(name, {}).items()},
        computed=dict(p.computed.get(name, {}))), p.tools.get(name, []))
            for name in order]


def _fields(p: Parsed, name: str, idents: dict[str, str]) -> list[EntityField]:
    drop = set(_EXCLUDED_FIELDS)
    if name in p.parents:
        drop |= {f"{idents[p.parents[name]]}_id", parent_key(p.parents[name], idents[p.parents[name]], p.auth)}
    out: list[EntityField] = []
    for item in p.fields.get(name, []):
        words, hint = item.words, item.hint
        target = referenced_record(item.words, name, p.plurals)
        if target:
            if target != p.parents.get(name) and target in idents \
                    and not any(f.ident == field_ident(item.label) for f in out):
                out.append(EntityField(name=item.own if p.vi and item.own else item.label,
                                       ident=field_ident(item.label), type="int", kind="reference",
                                       ref=idents[target]))
            continue   # names another entity: its parent (a relation) or a reference to it
        if len(words) > 1 and words[-1] == "flag":   # "paid flag" -> paid (bool)
            words, hint = words[:-1], "bool"
        if len(words) == 2 and words[0] == name.rpartition(" ")[2] and words[1] in ("name", "title"):
            words = words[1:]   # "recipe title" of a recipe is its title
        ident = field_ident("_".join(words))
        if (ident in drop or "_".join(words) in drop) and not (ident == "status" and item.enum_values) \
                or any(f.ident == ident for f in out):
            continue   # a status with its values is the record's status column (any move allowed)
        out.append(_field(words, hint, item, ident, name, p.vi))
    listed = bool(out)   # the user's own fields (before the implied ones): the record's label is theirs
    filtered = {field_ident("_".join(it.words)) for it in p.fields.get(name, []) if it.by_filter}
    described = any(f.ident not in filtered and f.kind not in _NO_CONTENT_KINDS for f in out)
    out += implied_fields(name, out, stated=name in p.status or name in p.workflows, listed=listed,
                          described=described)
    if len(out) > MAX_FIELDS:
        p.notes.append(f"{name}: {len(out) - MAX_FIELDS} more fields ignored (cap {MAX_FIELDS})")
        out = out[:MAX_FIELDS]
    named = next((k for k, f in enumerate(out) if f.kind == "short_text" and f.ident.endswith(("_name", "_title"))),
                 None)
    if not any(f.type == "str" and f.required and f.kind in (None, "short_text") for f in out) and named is not None:
        out[named] = out[named].model_copy(update={"required": True})   # "a first name, last name": no extra name
    asked = any(it.required is not None for it in p.fields.get(name, []))   # "optional" / "required" said
    if not listed and not any(f.type == "str" and f.required and f.kind in (None, "short_text") for f in out) \
            and not (asked and any(f.required for f in out)) \
            and not identified_by_links(p, name, out):   # the user's own fields: no invented name
        word = display_word(name)
        label = {"name": "tên", "title": "tiêu đề"}[word] if p.vi else word   # the request's language
        if not any(f.ident == word for f in out):
            out.insert(0, EntityField(name=label, ident=word, type="str", required=True, kind="short_text"))
    return out   # drafts invent nothing: only a record the request gives no fields gets a name or title


# A field of these kinds says when or what kind a record is, not what it holds (implied_fields.py).
_NO_CONTENT_KINDS = ("date", "datetime", "time", "enum", "reference", "boolean")
_TEXT_KINDS = ("short_text", "long_text", "email", "phone", "url")
_HINTED = {"int": ("integer", "int"), "float": ("decimal", "float"), "bool": ("boolean", "bool"),
           "date": ("date", "date"), "datetime": ("datetime", "datetime"), "text": ("long_text", "text")}


def _field(words: list[str], hint: str | None, item: FieldItem, ident: str, record: str,
           vi: bool = False) -> EntityField:
    """The field of `item`; a Vietnamese request keeps the user's words as its label ("số phòng"),
    its identifier (JSON key, column) is the English one ("room_number")."""
    kind, ftype = kind_in_record(words, record)
    if hint == "number":   # "total (number)": a number, its kind from its name when that is one
        kind, ftype = (kind, ftype) if kind in ("money", "integer", "decimal", "rating") else ("decimal", "float")
    elif hint == "str":   # "(string)": text, the kind its name gives when that is a text one (an email)
        kind, ftype = (kind, ftype) if kind in _TEXT_KINDS else ("short_text", "str")
    elif hint:
        kind, ftype = _HINTED.get(hint, (kind, hint))
    if item.enum_values:
        kind, ftype = "enum", "str"
    elif item.min_value is not None and kind not in ("rating", "integer", "money", "decimal"):
        kind, ftype = "rating", "int"
    required = item.required is True or (item.required is None and ident in ("title", "name") and ftype == "str")
    return EntityField(name=item.own if vi and item.own else " ".join(words), ident=ident, type=ftype,
                       required=required, kind=kind, unique=item.unique_for(kind),
                       enum_values=item.enum_values, min_value=item.min_value, max_value=item.max_value)


# --- the Todo special case ------------------------------------------------------------------------

def _is_todo(p: Parsed, entities: list[DataEntity]) -> bool:
    return ([e.ident for e in entities] == ["todo"] and not p.auth and not p.dashboard
            and not p.unsupported and not p.features and not p.workflows)


def _todo_spec(p: Parsed, todo: DataEntity) -> AppSpec:
    fields = [f for f in todo.fields if f.ident != "description" or p.fields.get("todo")]
    todo = todo.model_copy(update={"has_status": True, "fields": fields})
    reqs = [
        ("create", "todo", "Users can add a todo with a title",
         "POST /api/todos with a title returns 201 and the new todo with status open; "
         "a missing title returns 422"),
        ("list", "todo", "Users can list all todos", "GET /api/todos returns every added todo"),
        ("complete", "todo", "Users can mark a todo as complete",
         "POST /api/todos/{id}/complete sets the todo's status to done; an unknown id returns 404"),
        ("health", None, "The app exposes GET /health and serves a minimal HTML page at / to add, "
         "list and complete todos",
         'GET /health returns 200 with {"status": "ok"} and GET / returns 200 HTML with a form '
         "to add a todo"),
    ]
    notes = _notes(p, [todo])
    return AppSpec(
        app_type="web", title=_title(p, [todo]), stack=Stack(frontend=HTML_FRONTEND), auth=False,
        language="vi" if p.vi else "en",
        pages=[Page(name="home", route="/", entity="todo")], data_model=[todo],
        requirements=[Requirement(id=f"REQ-{n:03d}", text=t, acceptance=a, capability=c, entity=e)
                      for n, (c, e, t, a) in enumerate(reqs, 1)],
        must_have=["todos", "add", "list", "complete"], explicit_non_goals=_non_goals(p),
        acceptance_criteria=[a for _c, _e, _t, a in reqs], notes=notes,
    )


# --- requirements ---------------------------------------------------------------------------------

def _requirements(p: Parsed, entities: list[DataEntity]) -> list[tuple[str, str | None, str, str]]:
    reqs: list[tuple[str, str | None, str, str]] = []
    if p.auth and entities:
        roles = account_roles(p)
        plain = not (roles or any(e.shared or e.manage or e.assigned for e in entities))
        reqs.append(auth_item(p.login_email) if plain else ACCESS_AUTH_ITEM)
        reqs.extend(account_items(SimpleNamespace(roles=roles, change_password=p.change_password)))
    by_ident = {e.ident: e for e in entities}
    for e in entities:
        reqs.extend(entity_items(e, by_ident, p.auth))
        reqs.extend(entity_extra_reqs(p, e))
        reqs.extend(access_items(e))
        reqs.extend(link_reqs(e, entities) + computed_reqs(e) + stamp_items(e))
    if p.dashboard and entities:
        reqs.append(dashboard_item(entities, bool(p.auth), html=not p.api_only))
    if p.pages and entities:
        routes = [pg for pg in _pages(p, entities) if pg.route not in ("/", "/dashboard")]
        names = [pg.name for pg in routes]
        reqs.append(("pages", None,
                     f"The app serves HTML pages for {join_words(names)} with real data and forms",
                     f"GET {join_words([pg.route for pg in routes])} each return 200 HTML with a "
                     "<form>; entity pages list the stored records"))
    if entities:
        reqs.append(HEALTH_API if p.api_only else HEALTH)
    for text, _reason in p.unsupported:
        reqs.append(("unsupported", None, text,
                     f"{text} works as requested, proven by a passing test"))
    return reqs


# --- pages, title, lists, notes ------------------------------------------------------------------

def _pages(p: Parsed, entities: list[DataEntity]) -> list[Page]:
    pages = [Page(name="home", route="/")]
    if p.pages and p.auth:
        pages.append(Page(name="login", route="/login"))
    if p.dashboard:
        pages.append(Page(name="dashboard", route="/dashboard"))
    if p.pages:
        for e in entities:
            route = f"/{slug(e.plural)}"
            pages.append(Page(name=e.plural, route=route if route not in _FIXED_ROUTES else f"{route}-list",
                              entity=e.ident))
    return pages


def _title(p: Parsed, entities: list[DataEntity]) -> str:
    """The app-name phrase before the first head noun ("a Simple Todo App with ..."), else a name
    made from the entities or the unsupported feature."""
    if p.app_name:
        return p.app_name[:80]
    words = p.title_words
    head = None if p.vi else next((i for i, (w, _o) in enumerate(words) if w in lx.TITLE_HEADS), None)
    if head is not None:
        phrase = _naming_words(words, head)
        if phrase:
            return " ".join(_cap(o) for o in phrase)[:80]
    if len(entities) == 1:
        return _cap(entities[0].name) + " App"
    if entities:
        return " and ".join(_cap(e.plural) for e in entities[:2]) + " App"
    return _cap(p.unsupported[0][0])[:80] if p.unsupported else "App"


def _naming_words(words: list[tuple[str, str]], head: int) -> list[str]:
    """The words naming the app around its first head: "a Simple Todo App", "a tool library app"
    (the head "tool" is a modifier of "app"), "an inventory of items" (a collection head alone),
    "an app for my tool library" (the words after "for my/our")."""
    def before(h: int) -> list[str]:
        start = h
        while start > 0 and h - start < 4 and words[start - 1][0][:1].isalnum() \
                and words[start - 1][0] not in _TITLE_STOP:
            start -= 1
        if any(w not in lx.ADJECTIVES for w, _o in words[start:h]):
            return [o for _w, o in words[start:h + 1]]
        return []

    found = before(head)
    nxt = head + 1   # "tool library app": a later head the words run on to
    while not found and nxt < len(words) and nxt - head <= 3 and words[nxt][0][:1].isalnum() \
            and words[nxt][0] not in _TITLE_STOP:
        if words[nxt][0] in lx.TITLE_HEADS:
            found = before(nxt)
        nxt += 1
    if not found and [w for w, _o in words[head + 1:head + 3]] in (["for", "my"], ["for", "our"]):
        end = head + 3
        while end < len(words) and end - head - 3 < 3 and words[end][0][:1].isalnum() \
                and words[end][0] not in _TITLE_STOP:
            end += 1
        if end > head + 3:
            found = [o for _w, o in words[head + 3:end]] + [words[head][1]]
    if not found and words[head][0] in lx.COLLECTION_HEADS and head and words[head - 1][0] in ("a", "an", "my", "our"):
        found = [words[head][1]]
    return found


def _cap(word: str) -> str:
    return " ".join(w if any(c.isupper() for c in w) else w[:1].upper() + w[1:] for w in word.split())


def _must_have(p: Parsed, entities: list[DataEntity]) -> list[str]:
    items = ["authentication"] if p.auth and entities else []
    items += [e.plural for e in entities]
    if p.dashboard and entities:
        items.append("dashboard")
    if p.pages and entities:
        items.append("HTML pages")
    items += [text for text, _reason in p.unsupported]
    return list(dict.fromkeys(items))


def _non_goals(p: Parsed) -> list[str]:
    lifted = {goal for goal, terms in lx.NON_GOAL_TERMS.items() for text, _r in p.unsupported
              if terms & set(re.findall(r"\w+", text.lower()))}
    return [g for g in lx.DEFAULT_NON_GOALS if g not in lifted]


def _notes(p: Parsed, entities: list[DataEntity]) -> list[str]:
    notes = list(p.notes)
    if p.pages and p.frameworks:
        wanted = p.frameworks[0]
        notes.append(f"requested stack {wanted} frontend; offline generator builds server-rendered "
                     "HTML pages served by FastAPI")
    if p.api_only and entities:
        notes.append("API-only request: FastAPI JSON API under /api and its docs at /docs; no HTML page")
    elif p.api and not p.pages and entities:
        notes.append("API request: FastAPI JSON API under /api; the only HTML is the index page at /")
    if p.settings:
        notes.append("a settings page was requested; the offline generator has no settings model, "
                     "so no settings page is built")
    if p.unsupported:
        names = ", ".join(f'"{t}"' for t, _r in p.unsupported)
        notes.append(f"not built by the offline generator (kept as requirements that fail): {names}")
    return notes
