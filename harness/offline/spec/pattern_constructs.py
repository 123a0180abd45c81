"""The pattern-table actions that put spec-language constructs in the parse (docs/spec-language.md):
many-to-many links. patterns.py calls `construct_action` for a row whose action has one of them.

    link   {"records": [r1, r2]}: the two records are linked many-to-many (`many` of the first). An
           r is a capture (the record its first token that names one names) or {"record": name}:
           that record, added with a name field when the parse has none ("users tag notes"), or
           {"capture": c, "create": true}: the record c names, else one named by c's word, added.
           A link replaces every one-to-many reading of the same pair an earlier pass made: the
           parent of one by the other, and a field of one that names the other ("tags" of a note).

`same` (a row key, checked before the row acts): [[c1, c2], ...]: each pair of captures names the
same record ("each game has many players and each player many games").
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.fields import FieldItem
from harness.offline.spec.matcher import Match
from harness.offline.spec.nouns import singular_name
from harness.offline.spec.tokens import Tok

LINK_ROLE = "link:"


def same_records(toks: list[Tok], m: Match, pairs: list[list[str]], named) -> bool:
    """Every pair of captures names one and the same record (`named(capture)`: its records)."""
    for one, other in pairs:
        a, b = named(one), named(other)
        if not a or a[:1] != b[:1]:
            return False
    return True


def construct_action(toks: list[Tok], m: Match, action: dict, p, named) -> str:
    """Apply the construct of a row's action; the record it is about ("" when it did nothing)."""
    if "link" in action:
        return _link(action["link"], p, named, toks, m)
    return ""


def _record_of(r: str | dict, p, named, toks: list[Tok], m: Match) -> str:
    if isinstance(r, str):
        return next(iter(named(r)), "")
    if "record" in r:
        return _ensure_record(p, r["record"])
    found = next(iter(named(r["capture"])), "")   # {"capture": c, "create": true}
    return found or (_ensure_record(p, singular_name(toks[m.captures[r["capture"]][0]].w)) if r.get("create") else "")


def _link(how: dict, p, named, toks: list[Tok], m: Match) -> str:
    records = [_record_of(r, p, named, toks, m) for r in how["records"]]
    a, b = records
    if not a or not b or a == b:
        return ""
    if (a, b) not in p.links and (b, a) not in p.links:
        p.links.append((a, b))
    for child, parent in ((a, b), (b, a)):
        if p.parents.get(child) == parent:
            del p.parents[child]
            p.relation_clauses.pop(child, None)
        p.fields[child] = [it for it in p.fields.get(child, []) if singular_name(it.label) != parent]
    return a


def _ensure_record(p, name: str) -> str:
    if name not in p.entities:
        p.entities.append(name)
        p.plurals[name] = lx.pluralize(name)
        p.fields.setdefault(name, []).append(FieldItem(words=["name"]))
    return name
