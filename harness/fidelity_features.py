"""Feature fidelity for `builder bench --fidelity`: is one expected feature (a sentence from a
request file's "features" list) built by the spec, or named by one of its not-built clauses?

A feature counts as built only from what the spec really contains: its Feature entries, auth,
the dashboard, workflows, the server-side store, the pages requirement (every entity page is a table with the fields as
columns, styled by one stylesheet), the entities and their relations. Anything else counts only
when a clause marked not_built names the feature's words (in the clause's own words or, for a
Vietnamese clause, the English the parser reads for them) — the honest "not built".
"""

from __future__ import annotations

import re
from pathlib import Path

from harness.models.spec import AppSpec, DataEntity
from harness.offline.spec import lexicon as lx

# expected feature text -> what in the spec shows it was built; the first pattern that matches decides
FEATURE_KINDS = (
    (r"double.?book|overlap", "no_double_booking"), (r"\bexport|\bcsv", "csv_export"),
    (r"\bsearch|\bfind\b|\bfilter\w* .*\bkeywords?\b", "search"), (r"\bfilter", "filter"),
    (r"\bpersist(?:s|ed)?\b|\b(?:kept|saved|stays?|survives?) (?:after|across) (?:a |the )?(?:refresh|reload|restart)",
     "persistence"),
    (r"\bnewest\b|\blatest first|\bmost recent (?:\w+ )?first|reverse chronological", "newest_first"),
    (r"\bsort|\border(ed)? by", "sort"),
    (r"\btotal|\bsum\b|\bsums\b|\bbalance", "aggregate"), (r"\bcount|number of|how many", "status_counts"),
    (r"own data|their own|per.user|ownership|only their", "ownership"),
    (r"log ?in|sign.?up|sign.?in|authenticat|account|register|registration", "auth"),
    (r"dashboard|overview", "dashboard"), (r"->|→|status|workflow|mark .*(done|complete)", "workflow"),
    (r"\bmark\w* (?:an? |the |each )?\w+ as \W?\w+", "mark_as"),
    (r"\bcategori[sz]", "categorize"),
    # data reachable from every device is the server-side store itself; "devices" alone is no layout
    (r"across (?:\w+ )?devices|server.side (?:storage|data)|from any device", "server_storage"),
    (r"\bresponsive|mobile.friendly|small screens?|(?:mobile|phone|tablet) (?:devices?|screens?|layout)",
     "responsive"),
    (r"\bstyl(?:e|es|ed|ing|esheets?)\b|\bcss\b", "styling"),   # not "stylist"
    (r"\btables?\b", "table"),
    (r"\b(?:list|show|view)s? (?:the |all )?\w+ (?:of|in|for|per) (?:a|an|the|each|every|their|its) \w+",
     "per_parent"),
    (r"^(?:list|custom|add|create|view|manage|browse|track|record|edit|update)\b", "records"),
)
STOP = frozenset("the a an of to and or for with by in on at per each their its as is are be from "
                 "that this into all any can users user list show".split())
_RECORD_WORDS = frozenset("list custom add create view manage browse track record the all their own new edit "
                          "update delete remove information info details data and or a an of".split())
_STYLESHEET = Path(__file__).resolve().parent / "offline" / "generator" / "skeleton" / "src" / "ui.py"


def feature_ok(text: str, spec: AppSpec | None) -> bool:
    """Built by the spec, or named by one of its not-built clauses."""
    if spec is None:
        return True   # the spec stage refused the request, listing every clause as not built
    low = text.lower()
    kind = next((k for pattern, k in FEATURE_KINDS if re.search(pattern, low)), None)
    if kind and _built(kind, low, spec):
        return True
    return named_not_built(low, spec)


def feature_built(text: str, spec: AppSpec | None) -> bool:
    """Built by the spec (not merely named by a not-built clause)."""
    if spec is None:
        return False
    low = text.lower()
    kind = next((k for pattern, k in FEATURE_KINDS if re.search(pattern, low)), None)
    return bool(kind) and _built(kind, low, spec)


def _built(kind: str, low: str, spec: AppSpec) -> bool:
    if kind in _SPECIAL:
        return _SPECIAL[kind](low, spec)
    have = {f.kind for f in spec.features}
    if spec.auth:
        have |= {"auth", "ownership"}
    if any(r.capability == "dashboard" for r in spec.requirements):
        have.add("dashboard")
    if any(e.workflow or e.has_status or any(f.kind == "enum" and f.ident in ("status", "state") for f in e.fields)
           for e in spec.data_model):
        have.add("workflow")
    return kind in have


def _has_pages(spec: AppSpec) -> bool:
    """HTML pages are built: a web app (the generator gives every entity a page) or a pages requirement."""
    return spec.app_type == "web" or any(r.capability == "pages" for r in spec.requirements)


def _named(low: str, spec: AppSpec) -> list[DataEntity]:
    """The spec's entities the feature text names (singular or plural, in text order)."""
    words = re.findall(r"\w+", low)
    out = []
    for w in words:
        ent = next((e for e in spec.data_model if w in (e.name.lower(), e.plural.lower())), None)
        if ent is not None and ent not in out:
            out.append(ent)
    return out


def _styling(_low: str, spec: AppSpec) -> bool:
    """Every generated page links /style.css (the skeleton's one stylesheet)."""
    return _has_pages(spec)


def _responsive(_low: str, spec: AppSpec) -> bool:
    """Pages carry the viewport meta tag and the stylesheet has a small-screen rule."""
    text = _STYLESHEET.read_text(encoding="utf-8")
    return _has_pages(spec) and 'name="viewport"' in text and "@media (max-width" in text


_TABLE_WORDS = frozenset("table tables as in with key columns column listing listed lists showing shown "
                         "fields one row rows per".split())


def _table(low: str, spec: AppSpec) -> bool:
    """An entity's page lists its records as a table, one column per field: credited when the
    feature asks only that (its other words name the record, its fields or plain listing words);
    "a checkout view listing the selected books as a table" asks for a checkout and a selection."""
    rest = " ".join(w for w in re.findall(r"\w+", low) if w not in _TABLE_WORDS)
    return _has_pages(spec) and bool(_named(low, spec)) and _records(rest, spec)


def _server_storage(_low: str, spec: AppSpec) -> bool:
    """The generated app keeps its records server-side (SQLite behind the API), so every device
    that opens the app sees the same data."""
    return bool(spec.data_model)


def _categorize(low: str, spec: AppSpec) -> bool:
    """The named record has a category: a field called so, or a parent / reference that is a category."""
    for ent in _named(low, spec):
        if any("categor" in f.name.lower() for f in ent.fields):
            return True
        linked = [ent.parent, *(f.ref for f in ent.fields if f.kind == "reference")]
        if any(i and "categor" in i.lower() for i in linked):
            return True
    return False


def _per_parent(low: str, spec: AppSpec) -> bool:
    """Children listable per parent: the child belongs to the parent (GET /api/<parents>/{id}/<children>)
    or references it and can be filtered by that reference."""
    m = re.search(r"(?:list|show|view)s? (?:the |all )?(\w+) (?:of|in|for|per) (?:a|an|the|each|every|their|its) (\w+)",
                  low)
    if not m:
        return False
    child = _named(m.group(1), spec)
    parent = _named(m.group(2), spec)
    if not child or not parent:
        return False
    c, par = child[0], parent[0]
    if c.parent == par.ident:
        return True
    refs = [f for f in c.fields if f.kind == "reference" and f.ref == par.ident]
    filtered = any(f.kind == "filter" and f.entity == c.ident for f in spec.features)
    return bool(refs) and filtered


def _records(low: str, spec: AppSpec) -> bool:
    """ "list books", "custom categories", "track inventory movements (inflow, outflow)": records
    users create and list, when every other word of the feature names an entity the spec builds
    CRUD for, a modifier right before its name, or one of its fields or enum values."""
    ents = _named(low, spec)
    words = re.findall(r"\w+", low)
    names = {w for e in ents for w in (e.name.lower(), e.plural.lower())}
    # a noun right before the name ("inventory movements") names the same record; an adjective
    # ("available courts", "shared recipes") asks for more than the records
    modifiers = {words[k - 1] for k in range(1, len(words)) if words[k] in names} - lx.ADJECTIVES
    parts = {x for e in ents for f in e.fields for x in re.findall(r"\w+", " ".join([f.name, *f.enum_values]).lower())}
    rest = [w for w in words if w not in names | modifiers | _RECORD_WORDS
            and not any(_stem_match(w, x) for x in parts)]
    crud = {r.entity for r in spec.requirements if r.capability in ("crud", "create", "list")}
    return bool(ents) and not rest and all(e.ident in crud for e in ents)


def _mark_as(low: str, spec: AppSpec) -> bool:
    """ "mark an ingredient as purchased": the record has a yes/no field of that name, or that
    state in its workflow (done/complete: its complete action)."""
    m = re.search(r"\bmark\w* (?:an? |the |each )?(\w+) as \W?(\w+)", low)
    ents = _named(m.group(1), spec) if m else []
    if not ents:
        return False
    state, ent = m.group(2), ents[0]
    if state in ("done", "complete", "completed", "finished") and (ent.has_status or ent.workflow):
        return True
    return any(f.kind == "boolean" and _stem_match(state, f.ident.lower()) for f in ent.fields) or any(
        _stem_match(state, s.lower()) for s in ent.workflow)


_SPECIAL = {"styling": _styling, "responsive": _responsive, "table": _table, "categorize": _categorize,
            "per_parent": _per_parent, "records": _records, "mark_as": _mark_as,
            "server_storage": _server_storage}


def _stem_match(a: str, b: str) -> bool:
    """The same word up to an inflection ("share"/"shared", "owner"/"owners", "report"/"reports")."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and long_.startswith(short) and len(long_) - len(short) <= 3


def _reason_words(reason: str) -> set[str]:
    """The words a not-built reason names, plus the English the parser reads for Vietnamese ones."""
    from harness.offline.spec.tokens import tokenize

    words = set(re.findall(r"\w+", reason.lower()))
    if not reason.isascii():
        words |= {w for t in tokenize(reason, True)[0] for w in t.w.split() if w[:1].isalpha()}
    return words


def named_not_built(low: str, spec: AppSpec) -> bool:
    """Whether the clause that asks for the feature is marked not_built: of the clauses naming the
    most of the feature's content words (in their text or their reason, up to an inflection, in
    English for a Vietnamese word), one is not built. A not-built clause that merely shares a word
    while a mapped clause says the feature better is no credit: that mapped clause claims it."""
    words = {w for w in re.findall(r"\w+", low) if len(w) > 3 and w not in STOP}
    words -= {w for e in spec.data_model for w in (e.name.lower(), e.plural.lower())}
    fields = {w for e in spec.data_model for f in e.fields for w in re.findall(r"\w+", f.name.lower())}
    words = words - fields or words   # the columns a feature shows are not its ask ("a checkout ... (title, price)")
    scored = []
    for c in spec.clauses:
        exact = set(re.findall(r"\w+", c.text.lower()))   # the user's English words as written
        named = _reason_words(c.reason) | (_reason_words(c.text) - exact)   # + English of Vietnamese text
        scored.append((sum(1 for w in words if w in exact or any(_stem_match(w, x) for x in named)), c.status))
    best = max((n for n, _status in scored), default=0)
    return best > 0 and any(n == best and status == "not_built" for n, status in scored)
