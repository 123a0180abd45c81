"""Which record a pattern row's match is about: the row's action "record" (patterns.py), one of

    {"capture": c}            the record the capture names
    {"field_of": c, ...}      the one record with a field labelled as c's word
    {"field_in": set}         the one record with a field one of whose words is in the set
    {"in_clause": {...}}      the one record the anchor's clause names (below)
    {"reach": n, ...}         the record named nearest the anchor (`back`, `main`, `or_first_in`, `named`)

and with "has_kind": set, only a record with a field of a kind in that set (else none). The keys
are documented with an example each in docs/request-parser.md ("Row keys").
"""

from __future__ import annotations

from harness.offline.spec.fields import kind_for_name
from harness.offline.spec.matcher import Match
from harness.offline.spec.pass_helpers import main_record, nearest
from harness.offline.spec.tokens import Tok


def choose_record(toks: list[Tok], m: Match, how: dict, p, mentions: dict[int, str], named, sets) -> str:
    """The record a match is about, or "" when there is none (`named(capture)`: the records a
    capture names; `sets(name)`: a word set)."""
    record = _record(toks, m, how, p, mentions, named, sets)
    if record and "has_kind" in how and not any(kind_for_name(it.words)[0] in sets(how["has_kind"])
                                                for it in p.fields.get(record, [])):
        return ""
    return record


def _record(toks: list[Tok], m: Match, how: dict, p, mentions: dict[int, str], named, sets) -> str:
    if "capture" in how:
        return next(iter(named(how["capture"])), "")
    if "field_of" in how:
        return _field_owner(toks, m, how, p, mentions)
    if "field_in" in how:   # the one record with a field one of whose words is in the set
        owners = [e for e in p.entities if any(set(it.words) & sets(how["field_in"]) for it in p.fields.get(e, []))]
        return owners[0] if len(owners) == 1 else ""
    if "in_clause" in how:
        return _in_clause(toks, m.anchor, how["in_clause"], p, mentions, sets)
    found = nearest(toks, m.anchor, mentions, how["reach"]) \
        or (how.get("back") and _antecedent(toks, m.anchor, mentions))
    if found or how.get("main"):   # the request's main record, when the clause names none
        clause = toks[m.anchor].clause
        return found or ("" if any(toks[k].clause == clause for k in mentions) else main_record(mentions) or "")
    if "or_first_in" in how:   # the first record whose last word is in the set ("task", "ticket")
        first = next((e for e in p.entities if e.rpartition(" ")[2] in sets(how["or_first_in"])), "")
        if first:
            return first
    return p.entities[0] if len(p.entities) == 1 and not how.get("named") else ""


def _in_clause(toks: list[Tok], i: int, how: dict, p, mentions: dict[int, str], sets) -> str:
    """"in_clause": the one record type the records named in the anchor's clause are; else, with
    "back": set, those of the clause before when a word of the set before the anchor points back to
    it ("... a list of job applications. The user could filter this list"); else, with "roles":
    true, the records its words were read as (role "entity:"); else, with "only": true, the
    request's only record. Several, or none: ""."""
    clause = toks[i].clause

    def named_in(k: int) -> list[str]:
        return list(dict.fromkeys(name for j, name in sorted(mentions.items()) if toks[j].clause == k))
    found = named_in(clause)
    if not found and "back" in how and clause > 0 \
            and any(toks[j].w in sets(how["back"]) for j in range(i) if toks[j].clause == clause):
        found = named_in(clause - 1)
    if not found and how.get("roles"):
        found = list(dict.fromkeys(t.role[7:] for t in toks if t.clause == clause and t.role.startswith("entity:")))
    if not found and how.get("only") and len(p.entities) == 1:
        found = list(p.entities)
    return found[0] if len(found) == 1 else ""


def _field_owner(toks: list[Tok], m: Match, how: dict, p, mentions: dict[int, str]) -> str:
    """Record "field_of": the one record with a field (of kind "hint") labelled as the word of that
    capture, of the record named last in capture "among" when one is named there; none or several: ""."""
    w = toks[m.captures[how["field_of"]][0]].w
    named = [mentions[k] for k in m.captures.get(how.get("among", ""), []) if k in mentions][-1:]
    owners = [e for e, items in p.fields.items() if (not named or e in named)
              and any(it.label == w and it.hint == how.get("hint", it.hint) for it in items)]
    return owners[0] if len(owners) == 1 else ""


def _antecedent(toks: list[Tok], i: int, mentions: dict[int, str]) -> str:
    """The record named last before token i, in its clause or the one before ("..., delete tools;
    members can only see them")."""
    before = [j for j in mentions if j < i and toks[j].clause >= toks[i].clause - 1]
    return mentions[max(before)] if before else ""
