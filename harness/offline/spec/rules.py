"""Deterministic rule-based spec: a natural-language request (English or Vietnamese) -> AppSpec.

`rule_based_spec(request)` is the fallback used whenever no LLM answer is usable. It is pure
and deterministic: the same request gives a byte-identical `model_dump_json()` (lists and
insertion-ordered dicts only; sets are used for membership, never iterated).

The request is split into clauses; every token remembers its clause. `PASSES` is the one ordered
list of what runs over the tokens, kept as data in passes.jsonl, each with why it runs where it
does. A pass marks the tokens it recognises with a role; a table pass is rows of the pattern
tables (patterns/*.jsonl, patterns.py), a code pass is a function of the parser that a pattern
cannot say (the reason says what), called with the parts of the state it reads. `accounting` then decides per clause: mapped, not built (a content word no rule
recognised) or context.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from harness.errors import SpecError
from harness.models.spec import AppSpec
from harness.offline.spec import lexicon as lx
from harness.offline.spec.accounting import account_clauses
from harness.offline.spec.build import Parsed, build_spec
from harness.offline.spec.clauses import split_clauses
from harness.offline.spec.entities import MAX_ENTITIES, add_parents, find_entities  # noqa: F401 - MAX_ENTITIES: the package says it
from harness.offline.spec.field_passes import find_column_lists, find_field_bullets
from harness.offline.spec.filter_fields import find_filter_fields
from harness.offline.spec.pass_helpers import forget_records
from harness.offline.spec.patterns import run_pass
from harness.offline.spec.tokens import Tok, tokenize_clauses
from harness.offline.spec.wordsets import word_set

NO_ENTITY_MESSAGE = ("no data entity recognized in the request; name what the app manages, "
                     "e.g. 'tasks' or 'products'")

PASSES_FILE = Path(__file__).resolve().parent / "passes.jsonl"


@dataclass
class ParseState:
    """What the passes share: the tokens, the parse, and what one pass hands a later one."""

    request: str
    clauses: list[str]
    toks: list[Tok]
    p: Parsed
    status_enums: list = field(default_factory=list)       # (token, states) of "status: a / b / c"
    mentions: dict[int, str] = field(default_factory=dict)  # token index -> the entity it names


Pass = tuple[str, Callable[[ParseState], object], str]   # (name, run, why it is code / why here)


def _part(s: ParseState, name: str):
    """A part of the state by its name in passes.jsonl: "toks", "mentions", "p.entities", ..."""
    obj = s
    for attr in name.split("."):
        obj = getattr(obj, attr)
    return obj


def _store(s: ParseState, name: str, value) -> None:
    owner, _, attr = name.rpartition(".")
    setattr(_part(s, owner) if owner else s, attr, value)


def _runner(row: dict) -> Callable[[ParseState], object]:
    """What one row of passes.jsonl runs: its table's rows, or its code with the parts it reads;
    with "into", the result is kept in that part of the state."""
    if row.get("table"):
        def run(s: ParseState):
            return run_pass(row["pass"], s.toks, s.p, s.mentions)
    else:
        module, _, name = row["code"].rpartition(".")
        fn = getattr(importlib.import_module(f"harness.offline.spec.{module}"), name)
        reads = row["reads"]

        def run(s: ParseState):
            return fn(*(_part(s, r) for r in reads))
    if "into" not in row:
        return run
    return lambda s: _store(s, row["into"], run(s))


def load_passes(path: Path = PASSES_FILE) -> tuple[Pass, ...]:
    """The ordered pass table: one JSON object a line, {"pass", "table": true | "code": "<module>.<function>"
    with "reads": [parts of the state], optional "into", "why"}; a bad line is an error naming it."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            out.append((row["pass"], _runner(row), row["why"]))
        except (ValueError, KeyError, AttributeError, ImportError) as exc:
            raise ValueError(f"{path.name}:{n}: not a pass ({type(exc).__name__}: {exc})") from None
    return tuple(out)


# --- code passes that join two parts of the parser (named in passes.jsonl as "rules.<name>") ----

def later_field_lists(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> dict[int, str]:
    """Column lists, field bullets, filter fields; a new field list can name a new record, so the
    entities are found again when one is found (the passes "entity positions" to "parent entities added")."""
    found = find_column_lists(toks, mentions, p) + find_field_bullets(toks, mentions, p) \
        + find_filter_fields(toks, mentions, p)
    if not found:
        return mentions
    p.positions = []
    run_pass("entity positions", toks, p)
    run_pass("record heads", toks, p)
    run_pass("parent entities", toks, p, find_entities(toks, p))
    return add_parents(toks, p)


def account(toks: list[Tok], clauses: list[str], p: Parsed) -> None:
    p.accounts = account_clauses(toks, clauses)
    for clause, reason in p.blocked:
        p.accounts[clause].blocked.append(reason)


def new_state(request: str) -> ParseState:
    """The request's clauses and tokens, before any pass."""
    clauses = split_clauses(request)
    toks, vi, ignored = tokenize_clauses(clauses)
    p = Parsed(title_words=[(t.w, t.orig) for t in toks if t.orig], vi=vi, clauses=clauses)
    if ignored:
        shown = ", ".join(dict.fromkeys(ignored[:10]))
        p.notes.append(f"words not in the Vietnamese lexicon were ignored: {shown}")
    return ParseState(request, clauses, toks, p)


def run_passes(state: ParseState, until: str | None = None) -> None:
    """Run the passes in order (those before the pass named `until` only, when given)."""
    for name, run, _why in PASSES:
        if name == until:
            return
        run(state)


def rule_based_parse(request: str) -> Parsed:
    """What the rules read in `request`, before the spec is built; raises SpecError when it names
    nothing to build."""
    state = new_state(request)
    run_passes(state)
    p = state.p
    if not p.entities:
        err = SpecError(_nothing_message(p))
        err.clauses = list(p.clauses)   # the draft of a run that stops here still lists them
        raise err
    return p


def rule_based_spec(request: str) -> AppSpec:
    """The AppSpec the rules infer from `request`; raises SpecError when it names nothing to build."""
    return build_spec(rule_based_parse(request))


_PRODUCT_RULES = word_set("rules.product_rules")


def drop_unasked_entities(toks: list[Tok], p: Parsed) -> None:
    """When no clause at all is built, a noun that only names the kind of product ("an online 3D
    room planner") is not a record type that was asked for; records someone manages stay."""
    if any(a.status == "mapped" for a in p.accounts):
        return
    plural = {t.role[7:] for t in toks if t.role.startswith("entity:") and lx.singularize(t.w) != t.w}
    acted_on = {t.role.partition(":")[2] for t in toks if ":" in t.role and not t.role.startswith("entity:")}
    keep = [e for e in p.entities if p.fields.get(e) or e in acted_on   # "tasks can be marked done, but …"
            or p.entity_rules.get(e) not in _PRODUCT_RULES
            or p.entity_rules.get(e) == "app-list" and e in plural]   # "an app for orders" stays
    changed = True
    while changed:   # parents of kept entities stay
        changed = False
        for e in list(keep):
            parent = p.parents.get(e)
            if parent and parent not in keep:
                keep.append(parent)
                changed = True
    dropped = [e for e in p.entities if e not in keep]
    if not dropped:
        return
    forget_records(p, dropped)
    p.parents = {c: par for c, par in p.parents.items() if par in keep}


def _nothing_message(p: Parsed) -> str:
    from harness.offline.spec.coverage import clause_reason

    listed = "; ".join(f'C-{n:03d} "{c}" ({a.status}' + (f": {clause_reason(a, p)})" if a.status == "not_built"
                                                            else ")")
                       for n, (c, a) in enumerate(zip(p.clauses, p.accounts), 1))
    return NO_ENTITY_MESSAGE + (f". Clauses: {listed}" if listed else "")


# The order is the contract: a pass only sees what the passes above it left unused (passes.jsonl).
PASSES: tuple[Pass, ...] = load_passes()
