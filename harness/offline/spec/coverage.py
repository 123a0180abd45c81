"""Clause -> requirement mapping for the rule-based spec, plus the feature/workflow/not-built
requirements it needs. Pure functions over what the parser found (`build.Parsed`)."""

from __future__ import annotations

from typing import get_args

from harness.models.spec import AppSpec, Clause, DataEntity, Feature, FeatureKind, Requirement
from harness.offline.generator.naming import field_ident, slug
from harness.offline.requirement_words import FEATURE_TEXT
from harness.offline.spec.entity_tools import TOOL_CAPABILITY
from harness.constructs.spec_computed import computed_items
from harness.offline.spec_links import link_items
from harness.offline.spec_record_tools import tool_items

FEATURE_KINDS = frozenset(get_args(FeatureKind))
_STACK_REASON = "the offline generator builds FastAPI + SQLite with server-rendered HTML, not {}"
_MAX_REQ_TEXT = 160


def _resolve(acc, p) -> tuple[str, list[str], str]:
    """(status, roles, reason) of one clause account."""
    roles = list(acc.roles)
    if acc.status == "not_built":
        return "not_built", roles, _reason(acc, p)
    if acc.status == "context" and acc.actions:
        if len(p.entities) == 1:
            return "mapped", [f"entity:{p.entities[0]}"], ""
        return "not_built", roles, "it names no record type to act on"
    if acc.status == "context":
        return "context", [], "asks for nothing (greeting, background or framing words)"
    return "mapped", roles, ""


def clause_reason(acc, p) -> str:
    """Why a not-built clause is not built (for messages before the spec exists)."""
    return _reason(acc, p)


def _reason(acc, p) -> str:
    parts = list(acc.blocked)
    if acc.stacks:
        parts.append(_STACK_REASON.format(" and ".join(acc.stacks)))
    over = [w for w in acc.unknown if w.lower().rstrip("s") in {o.rstrip("s") for o in p.overflow}]
    if over:
        parts.append(f"more entities than the cap: {', '.join(over[:4])} not built")
    rest = [w for w in acc.unknown if w not in over]
    if rest:
        shown = ", ".join(f'"{w}"' for w in rest[:4])
        parts.append(f"no offline rule understands {shown}; an LLM provider may build it")
    return "; ".join(parts)


def req_text(clause: str) -> str:
    text = " ".join(clause.split()).rstrip(".!?,:; ")
    return text if len(text) <= _MAX_REQ_TEXT else text[:_MAX_REQ_TEXT - 1] + "…"


def not_built_reqs(p) -> list[tuple[str, str]]:
    """(requirement text, reason) for every not-built clause, deduplicated by text."""
    out: list[tuple[str, str]] = []
    for clause, acc in zip(p.clauses, p.accounts):
        status, _roles, reason = _resolve(acc, p)
        text = req_text(clause)
        if status == "not_built" and all(t.lower() != text.lower() for t, _r in out):
            out.append((text, reason))
    return out


def drop_unbuildable_features(p, entities: list[DataEntity]) -> None:
    """Features the generator cannot build for these entities leave the spec; their clauses
    become not built with the registry's reason."""
    from harness.offline.spec.features import feature_blocker

    draft = AppSpec(data_model=entities, auth=p.auth)
    by_name = {e.name: e for e in entities}
    kept = []
    for kind, name, cols, clause in p.features:
        ent = by_name.get(name)
        feature = Feature(kind=kind, entity=ent.ident if ent else None, fields=[field_ident(c) for c in cols],
                          options=dict(p.feature_options.get((kind, name), {})))
        reason = feature_blocker(feature, draft)
        if not reason:
            kept.append((kind, name, cols, clause))
            continue
        acc = p.accounts[clause]
        acc.roles = [r for r in acc.roles if not r.startswith(f"feature:{kind}:")]
        if reason not in acc.blocked:
            acc.blocked.append(reason)
    p.features = kept


def _features(p) -> list[tuple[str, str, list[str]]]:
    seen: dict[tuple[str, str], list[str]] = {}
    for kind, entity, cols, _clause in p.features:
        if entity:
            seen.setdefault((kind, entity), [])
            seen[(kind, entity)] += [c for c in cols if c not in seen[(kind, entity)]]
    return [(k, e, c) for (k, e), c in seen.items()]


def feature_models(p, by_name: dict[str, DataEntity]) -> list[Feature]:
    """The spec's Feature entries (entity and field idents)."""
    out = []
    for kind, name, cols in _features(p):
        if name in by_name:
            out.append(Feature(kind=kind, entity=by_name[name].ident, fields=[field_ident(c) for c in cols],
                               options=dict(p.feature_options.get((kind, name), {}))))
    return out


def feature_words(kind: str) -> tuple[str, str]:
    """(requirement text, acceptance) templates of a feature the parser asks for."""
    from harness.offline.features import REQ_TEXTS

    if kind in FEATURE_TEXT:
        return FEATURE_TEXT[kind]
    return REQ_TEXTS[kind], _CONSTRUCT_ACCEPTANCE[kind]


def entity_extra_reqs(p, e: DataEntity) -> list[tuple[str, str, str, str]]:
    """Workflow and feature requirements of entity `e` (capability, entity, text, acceptance)."""
    seg = slug(e.plural)
    out = []
    if e.workflow:
        chain = " → ".join(e.workflow)
        out.append(("workflow", e.ident, f"{e.plural.capitalize()} move through {chain}",
                    f"a new {e.name} starts as {e.workflow[0]}; moving it to the next state returns 200 and "
                    f"any other status change returns 409"))
    for kind, name, cols in _features(p):
        if name != e.name:
            continue
        text, acceptance = feature_words(kind)
        by = f" by {', '.join(cols)}" if cols else ""
        fill = {"plural": e.plural, "name": e.name, "seg": seg, "by": by}
        out.append(("feature", e.ident, text.format(**fill), acceptance.format(**fill)))
    out += [(cap, ident, text, _TOOL_ACCEPTANCE[cap].format(seg=seg))
            for cap, ident, text, _src in tool_items(e, not p.api_only)]
    return out


def link_reqs(e: DataEntity, entities: list[DataEntity]) -> list[tuple[str, str, str, str]]:
    """The many-to-many link requirements of `e`, as a spec file gives them (spec_links.py: the
    acceptance names the link, "note.many tag", which is how the black-box checks find the link)."""
    return link_items(e, entities)


def computed_reqs(e: DataEntity) -> list[tuple[str, str, str, str]]:
    """The computed-values requirement of `e` (capability "computed"; spec_computed.py's words)."""
    seg = slug(e.plural)
    shown = "; ".join(f"{name} = {expr}" for name, expr in e.computed.items())
    return [(cap, ident, text, f"GET /api/{seg} and /api/{seg}/{{id}} carry {shown}, worked out on every read; "
             "sending one is 422") for cap, ident, text, _src in computed_items(e)]


# Features the table rows add (pattern_constructs.py) that requirement_words.FEATURE_TEXT lacks:
# their requirement is the registry's text (features.REQ_TEXTS), proven as this says.
_CONSTRUCT_ACCEPTANCE = {
    "period_summary": "GET /api/{seg}/summary?period=week|month|year returns per period of the date the count "
                      "of {plural} and the sums of their number fields",
    "capacity": "creating one {name} more than the place holds returns 409 until one of them is deleted",
}


_TOOL_ACCEPTANCE = {
    "calendar": "GET /api/{seg}/calendar?from=&to= groups the records of those days by day, oldest first",
    "import": "POST /api/{seg}/import with CSV text adds every row, or none and names each bad row (422)",
    "attachment": "POST /api/{seg}/{{id}}/attachments stores a file that lists and downloads unchanged; "
                  "a wrong type is 415, too large 413",
    "soft_delete": "DELETE /api/{seg}/{{id}} leaves the record out of the list and GET (404); GET /api/{seg}/deleted "
                   "lists it and POST /api/{seg}/{{id}}/restore brings it back unchanged; its row stays in the database",
}


def _req_ids(spec: AppSpec, role: str, ident_of: dict[str, str]) -> list[str]:
    kind, _, rest = role.partition(":")
    by_cap: dict[tuple[str, str | None], list[str]] = {}
    for r in spec.requirements:
        by_cap.setdefault((r.capability, r.entity), []).append(r.id)

    def get(*keys: tuple[str, str | None]) -> list[str]:
        return next((by_cap[k] for k in keys if k in by_cap), [])

    if kind in ("auth", "dashboard"):
        return get((kind, None))
    if kind == "account":   # an account role or the password change (access.py)
        return get(("account", None))
    if kind in ("pages", "api"):
        return get(("pages", None), ("health", None))
    if kind in ("link", "computed"):
        return get((kind, ident_of.get(rest)))
    if kind == "tool":
        tool, _, name = rest.partition(":")
        return get((TOOL_CAPABILITY.get(tool, ""), ident_of.get(name)))
    if kind == "feature":
        fkind, _, name = rest.partition(":")
        ident = ident_of.get(name)
        text = feature_words(fkind)[0].split(" {")[0] if fkind in FEATURE_KINDS else ""
        return [r.id for r in spec.requirements if r.capability == "feature" and r.entity == ident
                and r.text.startswith(text)]
    ident = ident_of.get(rest)
    crud = get(("crud", ident)) or get(("create", ident)) + get(("list", ident))
    if kind in ("entity", "field"):
        return crud if kind == "entity" else (get(("crud", ident), ("create", ident)))
    if kind == "relation":
        return get(("relation", ident)) or crud
    if kind == "access":   # shared, managed or assigned records; without accounts every record is everyone's
        return get(("access", ident)) or ([] if spec.auth else crud)
    if kind == "complete":
        return get(("complete", ident), ("workflow", ident)) or crud
    if kind == "workflow":
        return get(("workflow", ident), ("complete", ident)) or crud
    return []


def clause_records(p, spec: AppSpec) -> list[Clause]:
    """The spec's `clauses`: each request clause with its status, REQ ids and reason."""
    ident_of = {e.name: e.ident for e in spec.data_model}
    unsupported = {r.text.lower(): r.id for r in spec.requirements if r.capability == "unsupported"}
    out = []
    for n, (clause, acc) in enumerate(zip(p.clauses, p.accounts), 1):
        status, roles, reason = _resolve(acc, p)
        reqs: list[str] = []
        for role in roles:
            reqs += [r for r in _req_ids(spec, role, ident_of) if r not in reqs]
        # who may do what, asked for and not built (access.py); without accounts a role word only
        # says who uses the app, and every record is everyone's
        unbuilt = spec.auth and [r for r in roles if r.partition(":")[0] in ("account", "access")
                                 and not _req_ids(spec, r, ident_of)]
        if status == "mapped" and unbuilt:
            status, reason = "not_built", "the account roles or access rules it asks for are not built"
            unsupported.setdefault(req_text(clause).lower(), _add_unsupported(spec, req_text(clause)))
        if status == "mapped" and not reqs:
            status, reason = "not_built", "recognised, but no requirement implements it"
            unsupported.setdefault(req_text(clause).lower(), _add_unsupported(spec, req_text(clause)))
        if status == "not_built":
            reqs = [unsupported[req_text(clause).lower()]] + reqs
        out.append(Clause(id=f"C-{n:03d}", text=" ".join(clause.split()), status=status,
                          reqs=sorted(reqs) if status != "context" else [], reason=reason))
    return out


def _add_unsupported(spec: AppSpec, text: str) -> str:
    rid = f"REQ-{len(spec.requirements) + 1:03d}"
    acceptance = f"{text} works as requested, proven by a passing test"
    spec.requirements.append(Requirement(id=rid, text=text, acceptance=acceptance, capability="unsupported"))
    spec.acceptance_criteria.append(acceptance)
    return rid
