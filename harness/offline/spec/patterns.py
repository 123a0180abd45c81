"""The pattern tables (harness/offline/spec/patterns/*.jsonl, one file per grammatical role) and
how a pass made of them runs.

One JSON object a line:

    {"name": ..., "pass": ..., "example": ..., "yields": {...},
     "before": [token specs], "tokens": [token specs], "unless": {...}, "action": {...}}

`tokens`/`before` are matcher.py token specs. A pass is every pattern with the same "pass", in
file order: at each token, in text order, its patterns are tried in turn and the first that
matches acts (an if/elif chain over the tokens, as the passes written in code were). `action` and every row key
are documented once, with an example each, in docs/request-parser.md ("Row keys"); in short:
`mark` gives roles, `report` a not-built phrase, `block` blocks the clause, `set` flags the parse,
`record` + `fields`/`status`/`access`/`roles`/`workflow`/… act on the record a match is about,
and the constructs of pattern_constructs.py (`link`, `feature`, `computed`, `capacity`) build one.

The row keys that veto a match (`unless`, `unless_record`, `unless_entity`, `unless_belongs`,
`belongs`, `same`) are checked in `run_patterns`. `yields` is what the pattern alone does to its
own example sentence after the passes before its own (rules.PASSES): the example is the
pattern's specification (pattern_examples.py, test_pattern_tables).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from harness.offline.spec import lexicon as lx
from harness.offline.spec.clause_conditions import clause_holds
from harness.offline.spec.fields import FieldItem, kind_for_name
from harness.offline.spec.list_parts import read_range
from harness.offline.spec.matcher import Match, match_at, token_ok
from harness.offline.spec.nouns import singular_name
from harness.offline.spec.pattern_constructs import CONSTRUCTS, construct_action, renamed_word, same_records
from harness.offline.spec.record_choice import choose_record
from harness.offline.spec.relations import claim
from harness.offline.spec.token_tests import TokenTest
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

TABLES_DIR = Path(__file__).resolve().parent / "patterns"


@lru_cache(maxsize=1)
def all_patterns() -> list[dict]:
    """Every pattern of every table, with the file it comes from (key "table")."""
    out = []
    for path in sorted(TABLES_DIR.glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    out.append({**json.loads(line), "table": f"{path.name}:{n}"})
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path.name}:{n}: not a JSON pattern ({exc})") from None
    return out


@lru_cache(maxsize=None)
def pass_patterns(name: str) -> tuple[dict, ...]:
    """The patterns of one pass, in table order; a pass with none is an error naming it."""
    found = tuple(p for p in all_patterns() if p["pass"] == name)
    if not found:
        raise KeyError(f"no pattern belongs to the pass {name!r}")
    return found


@lru_cache(maxsize=None)
def pattern_set(name: str) -> frozenset[str]:
    """A set a pattern names: a set of the data file, or a word class of lexicon.py by its
    upper-case name ("DETERMINERS", the keys of a dict such as "STACK_NAMES")."""
    value = getattr(lx, name, None) if name.isupper() else None
    return frozenset(value) if isinstance(value, (frozenset, set, dict)) else word_set(name)


class _RecordWords:
    """The set "RECORDS" a pattern can name: the words that name a record type of the parse, in
    any number ("invoice", "invoices")."""

    def __init__(self, p) -> None:
        self.p = p

    def __contains__(self, w: str) -> bool:
        return w[:1].isalpha() and singular_name(w) in self.p.entities


class _FieldWords:
    """The set "FIELDS" a pattern can name: the words of the parse's field labels, any record's
    ("watering" of a "watering interval")."""

    def __init__(self, p) -> None:
        self.p = p

    def __contains__(self, w: str) -> bool:
        return any(w in it.words for items in self.p.fields.values() for it in items)


def _record_columns(p):
    """"COLUMNS" (record, alike) -> the words naming one of a record type's columns: the last word of
    each of its field labels, and every word of `alike` when one of them is (none: not a record)."""
    def columns(record: str, alike: frozenset) -> frozenset:
        last = {it.words[-1] for it in p.fields.get(record, []) if it.words} if record in p.entities else set()
        return frozenset(last | alike if last & alike else last)
    return columns


def _sets_of(p, toks: list[Tok], mentions: dict[int, str]):
    """The sets a pattern names while it runs over the parse p (pattern_set, "RECORDS", "FIELDS", the
    token tests "is:<test>" of token_tests.py, and "COLUMNS" of matcher's `column_of`)."""
    named: dict[str, object] = {"RECORDS": _RecordWords(p), "FIELDS": _FieldWords(p), "COLUMNS": _record_columns(p)}

    def sets(name: str):
        if name not in named:
            named[name] = TokenTest(name[3:], toks, mentions, p) if name.startswith("is:") else pattern_set(name)
        return named[name]
    return sets


def _vetoed(toks: list[Tok], m: Match, unless: dict | None) -> bool:
    if not unless:
        return False
    return any(toks[x].used and toks[x].role.startswith(unless["role"])
               for x in m.captures.get(unless["capture"], []))


def _mark(toks: list[Tok], m: Match, mark: dict, sets=pattern_set) -> None:
    where = mark.get("where", {})
    mapping = getattr(lx, mark["map"]) if "map" in mark else None
    if "each" in mark:   # every match of the sequence in the clause (the request), marked as it is found
        clause = None if mark.get("scope") == "request" else toks[m.anchor].clause
        for k in range(len(toks)):
            one = match_at(toks, k, {"tokens": mark["each"]}, sets, m.captures) if clause in (None, toks[k].clause) else None
            for x in one.captures["match"] if one else []:
                if _may_mark(toks[x], mark):
                    toks[x].used, toks[x].role = True, mark["role"]
        return
    for x in m.captures.get(mark.get("capture", "match"), []):
        if _may_mark(toks[x], mark) and token_ok(toks[x], where, pattern_set):
            role = mark["role"].replace("{map}", mapping[toks[x].w]) if mapping else mark["role"]
            toks[x].used, toks[x].role = True, role


def _may_mark(t: Tok, mark: dict) -> bool:
    """A mark takes an unused token; with "force" any token, with "retake" one a pass gave that role."""
    return mark.get("force") or not t.used or t.role in _names(mark.get("retake", []))


def _names_entity(toks: list[Tok], m: Match, pattern: dict, p) -> bool:
    """`unless_entity`: the word of the capture's first token is a record type of the parse."""
    capture = pattern.get("unless_entity")
    return capture is not None and toks[m.captures[capture][0]].w in p.plurals


def _report(toks: list[Tok], m: Match, report: dict) -> None:
    head = m.captures[report["head"]][0]
    keep = {x for c in report.get("keep", []) for x in m.captures.get(c, [])}
    for x in m.captures["match"]:
        if x != head and x not in keep and token_ok(toks[x], report.get("where", {}), pattern_set):
            toks[x].used, toks[x].role = True, "context"
    parts = report.get("phrase", [{"capture": "match"}])
    def text(part: dict) -> str:
        return part.get("text") or " ".join(toks[x].orig or toks[x].w for x in m.captures[part["capture"]])

    toks[head].orig = " ".join(text(part) for part in parts)
    toks[head].used, toks[head].role = True, "unexplained"


def _block(toks: list[Tok], m: Match, reason: str, p, listed: dict | None = None) -> None:
    """Block the anchor's clause; with `listed` {"capture": c, "where": spec, "text": " ({})"} the
    words of c that satisfy `where`, as the user wrote them, fill "{list}" of the reason (none: "")."""
    if listed:
        words = [toks[x].orig or toks[x].w for x in m.captures.get(listed["capture"], [])
                 if token_ok(toks[x], listed.get("where", {}), pattern_set)]
        reason = reason.replace("{list}", listed["text"].format(", ".join(words)) if words else "")
    if (toks[m.anchor].clause, reason) not in p.blocked:
        p.blocked.append((toks[m.anchor].clause, reason))


def _act(toks: list[Tok], m: Match, action: dict, p, mentions: dict[int, str], sets=pattern_set) -> None:
    record, anchor_role = "", toks[m.anchor].role
    if "status" in action:
        named = _named(toks, m, action["status"]["capture"], p)
        if not named:
            return
        record = named[0]
        column = action["status"].get("field")   # a state column: the request names no states
        for items in (p.fields.setdefault(n, []) for n in named if column):
            items += [] if any(it.words == [column] for it in items) else [FieldItem(words=[column])]
        p.status.extend(n for n in named if not column and n not in p.status and n not in p.workflows)
    if isinstance(action.get("cascade"), dict):   # "use cascading deletes": the parse's child records
        record = _cascade_children(toks, m, action["cascade"], p, mentions)
        if not record:
            return
    if "record" in action:
        record = choose_record(toks, m, action["record"], p, mentions, lambda c: _named(toks, m, c, p), pattern_set)
        if not record and "feature" not in action:   # a feature's "of" may still name one
            _no_record(toks, m, action, p)
            return
        if record in p.workflows and "with_workflow" in action:
            action = {**action, **action["with_workflow"]}
    if record and not action.get("no_fields_entry"):   # a row that only marks or adds a feature makes none
        items = p.fields.setdefault(record, [])
        for label in action.get("fields", []):
            item = _field_item(toks, m, label)
            if item and all(it.label != item.label for it in items) and not _has_like(items, label):
                items.append(item)
        if action.get("field_clause"):   # the clause describes the record's fields
            p.field_clauses.setdefault(record, []).append(toks[m.anchor].clause)
        tool = action.get("entity_tool")
        if tool and tool not in p.tools.setdefault(record, []):
            p.tools[record].append(tool)
        if action.get("record_status") and record not in p.status and record not in p.workflows:
            p.status.append(record)
        if action.get("cascade") is True:   # deleting the record's parent removes it (on_parent_delete)
            p.cascade.add(record)
        if "workflow" in action and record not in p.workflows and record not in p.status:
            p.workflows[record] = list(action["workflow"])
        for key in action.get("access", []):
            name, value = (key, True) if isinstance(key, str) else next((k, _word(toks, m, c)) for k, c in key.items())
            p.access.setdefault(record, {}).setdefault(name, value)
            p.asked_in.setdefault((record, name), set()).add(toks[m.anchor].clause)
    for role in action.get("roles", []):
        entry = (_word(toks, m, role["capture"]), role["rank"])
        if entry not in p.roles:
            p.roles.append(entry)
    if CONSTRUCTS & set(action):   # the construct's own record; none: the row does nothing
        record = construct_action(toks, m, action, p, lambda c: _named(toks, m, c, p), record)
        if not record:
            _no_record(toks, m, action, p)
            return
    p.object_positions += [x for x in m.captures.get(action.get("introduce", ""), []) if x not in p.object_positions]
    if "position" in action:   # where a record type is named: pass "entity positions", read by entities.py
        _position(toks, m, action["position"], p)
    if "relation" in action:   # a record's parent: passes "relation phrases", "relation verbs"
        claim(toks, m, action["relation"], p, mentions)
    for mark in action.get("mark", []):
        _mark(toks, m, {**mark, "role": mark["role"].replace("{record}", record).replace("{role}", anchor_role)}, sets)
    if "report" in action:
        _report(toks, m, action["report"])
    if action.get("block"):
        _block(toks, m, action["block"], p, action.get("block_list"))
    for attr, value in action.get("set", {}).items():
        setattr(p, attr, value)
    for attr, capture in action.get("set_words", {}).items():   # the words of a capture, as written
        setattr(p, attr, " ".join(toks[x].orig for x in m.captures.get(capture, [])))
    for attr, mapping in action.get("append", {}).items():   # the anchor word's value in a lexicon map
        getattr(p, attr).append(getattr(lx, mapping)[toks[m.anchor].w])
    if "rename" in action:   # a word, or {"capture": c}: the singular of c's word
        toks[m.anchor].w = renamed_word(toks, m.captures, action["rename"])
    for x in m.captures.get(action.get("erase", ""), []):   # words set aside, as the lexicon's ignored ones
        toks[x].w = ""


def _position(toks: list[Tok], m: Match, how: dict, p) -> None:
    """`position` {"capture": c, "rule": r, "where": spec, "max": n, "min": n, "unless_next": set}: the
    tokens of c that satisfy `where` (the first `max`) name record types, when there are at least `min`
    of them and the word after the last of c is not in the set."""
    taken = m.captures.get(how["capture"], [])
    heads = [x for x in taken if token_ok(toks[x], how.get("where", {}), pattern_set)][:how.get("max")]
    after = toks[taken[-1] + 1].w if taken and taken[-1] + 1 < len(toks) else ""
    if len(heads) >= how.get("min", 1) and not ("unless_next" in how and after in pattern_set(how["unless_next"])):
        p.positions += [(m.anchor, x, how["rule"]) for x in heads]


def _no_record(toks: list[Tok], m: Match, action: dict, p) -> None:
    if action.get("unclaim"):   # nothing to act on: the words are left to later passes
        for x in m.captures["match"]:
            toks[x].used, toks[x].role = False, ""
    if action.get("no_record"):   # a recognised ask with nothing to act on is not built
        _mark(toks, m, {"role": "context", "force": True})
        _block(toks, m, action["no_record"], p)


def _cascade_children(toks: list[Tok], m: Match, how: dict, p, mentions: dict[int, str]) -> str:
    """`cascade` {"children": "all" | "named", "or_all": true}: every record with a parent, or those
    the anchor's clause names (none: with "or_all", every one) are removed with their parent; the
    first of them by name is the row's record ("" when there is none)."""
    children = {child for child, parent in p.parents.items() if parent}
    chosen = children if how["children"] == "all" else children & {
        name for k, name in mentions.items() if toks[k].clause == toks[m.anchor].clause}
    chosen = chosen or (children if how.get("or_all") else set())
    p.cascade.update(chosen)
    return min(chosen) if chosen else ""


def _word(toks: list[Tok], m: Match, capture: str) -> str:
    """The singular of the first word of a capture ("Admins" -> "admin")."""
    return singular_name(toks[m.captures[capture][0]].w)


def _belongs(toks: list[Tok], m: Match, pair: list[str] | None, p) -> bool:
    """`unless_belongs` [c1, c2]: the record c1 names is the one c2 names, or belongs to it."""
    if not pair:
        return False
    child, holder = (next(iter(_named(toks, m, c, p)), "") for c in pair)
    return bool(child) and (child == holder or p.parents.get(child) == holder)


def _belongs_to(toks: list[Tok], m: Match, pair: list[str] | None, p) -> bool:
    """`belongs` [c1, c2]: the record c1 names belongs to the one c2 names (its parent)."""
    if not pair:
        return True
    child, holder = (next(iter(_named(toks, m, c, p)), "") for c in pair)
    return bool(child) and p.parents.get(child) == holder


def _names(value) -> list:
    return [value] if isinstance(value, str) else list(value)


def _has_like(items: list[FieldItem], label: str | dict) -> bool:
    """A field's "unless_like" {"kind": k or [kinds], "last_in": set}: the record has a field of
    that kind (whose last word is in the set): a "photo" link makes "a picture" no second field."""
    like = label.get("unless_like") if isinstance(label, dict) else None
    return bool(like) and any(kind_for_name(it.words)[0] in _names(like["kind"]) and (
        "last_in" not in like or it.words[-1] in pattern_set(like["last_in"])) for it in items)


def _field_item(toks: list[Tok], m: Match, field: str | dict) -> FieldItem | None:
    """A field an action adds: a label, or {"capture": c, "hint": h} (the words of c), or
    {"label": l, "values": {"capture": c, "where": spec}}: an enum of the words of c that satisfy
    `where` when there are two or more (one value is no choice: a plain field)."""
    if isinstance(field, str):
        return FieldItem(words=field.split())
    if "capture" in field:
        words = [toks[x].w for x in m.captures.get(field["capture"], [])]
        if not words:
            return None   # an optional capture that matched nothing: no field
        if field.get("singular"):
            words[-1] = singular_name(words[-1])
        return FieldItem(words=words, hint=field.get("hint"))
    if "range" in field or "min" in field:   # bounds: of a numeric range a capture starts, or given
        low, high, _end = read_range(toks, m.captures[field["range"]][0]) if "range" in field \
            else (field["min"], field["max"], 0)
        return FieldItem(words=field["label"].split(), min_value=low, max_value=high)
    how = field["values"]
    values = [toks[x].w for x in m.captures.get(how["capture"], []) if token_ok(toks[x], how.get("where", {}), pattern_set)]
    return FieldItem(words=field["label"].split(), enum_values=values if len(values) > 1 else [])


def _named(toks: list[Tok], m: Match, capture: str, p) -> list[str]:
    """The records the tokens of a capture name (role "entity:<name>", or a word of "RECORDS"), in
    text order, once each."""
    names = [toks[x].role[len("entity:"):] if toks[x].role.startswith("entity:")
             else singular_name(toks[x].w) if toks[x].w in _RecordWords(p) else "" for x in m.captures.get(capture, [])]
    return list(dict.fromkeys(n for n in names if n))


def _anchor_words(pattern: dict) -> frozenset[str] | None:
    """The words the pattern's anchor can be (None: any word), so most tokens skip the matcher."""
    spec = pattern["tokens"][0]
    words = None
    if "w" in spec:
        words = frozenset([spec["w"]] if isinstance(spec["w"], str) else spec["w"])
    if "set" in spec:
        names = [spec["set"]] if isinstance(spec["set"], str) else spec["set"]
        if "RECORDS" in names or "FIELDS" in names:   # the parse's records and fields: known only while it runs
            return words
        in_sets = frozenset().union(*(pattern_set(n) for n in names))
        words = in_sets if words is None else words & in_sets
    return words


def run_patterns(patterns: tuple[dict, ...] | list[dict], toks: list[Tok], p,
                 mentions: dict[int, str] | None = None) -> list[int]:
    """Run patterns as one pass over the tokens (first matching pattern per token acts); the
    anchors of the matches that acted. `mentions`: token index -> the record it names (once
    entities are found)."""
    acted: list[int] = []
    sets = _sets_of(p, toks, mentions or {})
    anchored = [(pattern, _anchor_words(pattern)) for pattern in patterns]
    for i in range(len(toks)):
        for pattern, words in anchored:
            if words is not None and toks[i].w not in words:
                continue
            m = match_at(toks, i, pattern, sets)
            if m is not None and clause_holds(toks, i, pattern, p) and not _vetoed(toks, m, pattern.get("unless")) \
                    and pattern.get("unless_record") not in p.entities and not _names_entity(toks, m, pattern, p) \
                    and same_records(toks, m, pattern.get("same", []), lambda c: _named(toks, m, c, p)) \
                    and not _belongs(toks, m, pattern.get("unless_belongs"), p) \
                    and _belongs_to(toks, m, pattern.get("belongs"), p):
                _act(toks, m, pattern["action"], p, mentions or {}, sets)
                acted.append(i)
                if not pattern.get("go_on"):   # the pass's later rows are tried at this token too
                    break
    return acted


def run_pass(name: str, toks: list[Tok], p, mentions: dict[int, str] | None = None) -> list[int]:
    """Run the table pass `name` over the tokens; the anchors of the matches that acted."""
    return run_patterns(pass_patterns(name), toks, p, mentions)
