"""The pattern-table actions that put spec-language constructs in the parse (docs/spec-language.md):
many-to-many links, features of the registry (capacity among them) and computed values. patterns.py calls `construct_action` for a row
whose action has one of them.

    link   {"records": [r1, r2]}: the two records are linked many-to-many (`many` of the first). An
           r is a capture (the record its first token that names one names) or {"record": name}:
           that record, added with a name field when the parse has none ("users tag notes"), or
           {"capture": c, "create": true}: the record c names, else one named by c's word, added.
           "only_linked": true: nothing new — the row acts only when the two are already linked
           ("filter the notes by tag" is the link's ?tag= filter).
           A link replaces every one-to-many reading of the same pair an earlier pass made: the
           parent of one by the other, and a field of one that names either ("tags" of a note, and
           "notes" when a field list ran on into "and notes can have many tags").

    feature {"kind": k, "of": c, "options": {...}, "stamp": set}: the record gets feature k (harness/offline/features.py)
           on the fields c names: the record one of whose number fields the last words of c name
           ("pages read" of a reading session: the feature works on that field; of several records
           with it, the first with a field of a kind in "prefer"), else the record
           the last word of c naming one names ("tasks": no field); without "of" (or when c names
           neither), the row's "record". No record: the row does nothing. The words of c from the
           one that named the field or record on get the feature's role; the others stay as they were.
           "stamp": a word of c in that set names the state the count is by (_stamp).

    computed {"name": n, "expr": e, "slots": {...}}: a value computed from the record on every read
           (harness/constructs/computed_expr.py), its fields found by kind and words (_computed)

    capacity {"resource": c, "occupant": c, "limit": c, ...}: the capacity feature on the records that
           take the resource's places (_capacity)

    field_list {"of": c, "strict": bool, "unprefixed": bool}: the field list read right after the
           match (fields.parse_field_list) is the fields of the record c's first word names (its
           singular; the entities pass finds it there): the match and the list's words are its. No
           field read: the row does nothing ("Add plants to your collection by entering name, species")

`same` (a row key, checked before the row acts): [[c1, c2], ...]: each pair of captures names the
same record ("each game has many players and each player many games").
"""

from __future__ import annotations

from harness.offline.generator.naming import field_ident, py_ident
from harness.offline.spec import lexicon as lx
from harness.offline.spec.fields import FieldItem, add_fields, parse_field_list
from harness.offline.spec.matcher import Match
from harness.offline.spec.nouns import singular_name
from harness.offline.spec.pass_helpers import STOPS
from harness.offline.spec.record_fields import kind_in_record, referenced_record
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_map, word_set

CONSTRUCTS = {"link", "feature", "computed", "capacity", "field_list"}   # the action keys construct_action reads


def same_records(toks: list[Tok], m: Match, pairs: list[list[str]], named) -> bool:
    """Every pair of captures names one and the same record (`named(capture)`: its records)."""
    for one, other in pairs:
        a, b = named(one), named(other)
        if not a or a[:1] != b[:1]:
            return False
    return True


def construct_action(toks: list[Tok], m: Match, action: dict, p, named, record: str = "") -> str:
    """Apply the construct of a row's action; the record it is about ("" when it did nothing).
    `record`: the record the row's "record" action found."""
    if "link" in action:
        return _link(action["link"], p, named, toks, m)
    if "feature" in action:
        return _feature(action["feature"], p, toks, m, record)
    if "computed" in action:
        return _computed(action["computed"], p, toks, m, record)
    if "capacity" in action:
        return _capacity(action["capacity"], p, toks, m, named)
    if "field_list" in action:   # the field list after the match: fields of the record c's word names
        how = action["field_list"]
        items, consumed = parse_field_list(toks, m.end, how.get("strict", False), STOPS)
        return add_fields(toks, p, m.captures[how["of"]][0], toks[m.anchor], items, [*m.captures["match"], *consumed],
                          how.get("unprefixed", False)) if items else ""
    return ""


_NUMBER_KINDS = ("integer", "money", "decimal", "rating")
_SUBJECTS = word_set("reader_pronouns")


def _of_words(words: list[str], p, prefer: list[str]) -> tuple[str, list[str], int]:
    """(record, [field label], where the words naming it start) that the words name: a number field
    by a run of them (the longest, the leftmost first: "total pages read" -> pages; of several
    records with it, the first with a field of a `prefer` kind), else the record their last record
    word names; ("", [], 0) when neither."""
    for size in range(len(words), 0, -1):
        for start in range(len(words) - size + 1):
            run = words[start:start + size]
            having = [(record, it) for record in p.entities for it in p.fields.get(record, [])
                      if it.words == run and _item_kind(it, record) in _NUMBER_KINDS]
            if having:
                record, it = next(((r, it) for r, it in having if any(
                    _item_kind(f, r) in prefer for f in p.fields.get(r, []))), having[0])
                return record, [it.label], start
    for k in range(len(words) - 1, -1, -1):
        if words[k][:1].isalpha() and singular_name(words[k]) in p.entities:
            return singular_name(words[k]), [], k
    return "", [], 0


def _feature(how: dict, p, toks: list[Tok], m: Match, record: str) -> str:
    of = [x for x in m.captures.get(how.get("of", ""), []) if toks[x].w not in _SUBJECTS]   # "pages I read"
    named, cols, start = _of_words([toks[x].w for x in of], p, how.get("prefer", []))
    record = named or record
    if not record:
        return ""
    clause = toks[m.anchor].clause
    if (how["kind"], record, cols, clause) not in p.features:
        p.features.append((how["kind"], record, cols, clause))
    if how.get("options"):
        p.feature_options.setdefault((how["kind"], record), {}).update(how["options"])
    if how.get("stamp"):
        _stamp(how, p, toks, m, record)
    said = of[start:] if cols else of[start:start + 1] if named else []
    for x in said:   # the record's word, or the field's words and the rest of the run ("pages read")
        if not toks[x].used:
            toks[x].used, toks[x].role = True, f"feature:{how['kind']}:{record}"
    return record


_GENERIC_DONE = "completed on"


def _stamp(how: dict, p, toks: list[Tok], m: Match, record: str) -> None:
    """"stamp": set: a word of that set among the words "of" captured ("completed tasks", "tasks I
    completed") is a state the record reaches: the record gets a date its workflow stamps when it
    moves there ("completed on" = the workflow's last state; "delivered on" = "delivered" when the
    workflow has that state), and the feature counts by it. A generic completion word (the set
    `how["generic"]`) on a record with no workflow and no status values gives it the workflow
    open -> done; any other word needs the workflow to name it."""
    generic = word_set(how.get("generic", "")) if how.get("generic") else frozenset()
    for x in m.captures.get(how.get("of", ""), []):
        word = toks[x].w
        if word not in word_set(how["stamp"]):
            continue
        states = p.workflows.get(record, [])
        if not states and word in generic and not any(it.words == ["status"] for it in p.fields.get(record, [])):
            states = p.workflows[record] = ["open", "done"]
            if record in p.status:
                p.status.remove(record)
        state = word if word in states[1:] else states[-1] if states and word in generic else ""
        if not state:
            return
        label = f"{word} on" if word.endswith("ed") and word not in generic else _GENERIC_DONE
        items = p.fields.setdefault(record, [])
        if all(it.label != label for it in items):
            items.append(FieldItem(words=label.split(), hint="date"))
        p.stamps.setdefault(record, {})[label] = state
        p.feature_options.setdefault((how["kind"], record), {})["date"] = label
        if not toks[x].used or toks[x].role == "unexplained":
            toks[x].used, toks[x].role = True, f"feature:{how['kind']}:{record}"
        return


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
    if how.get("only_linked"):   # "filter notes by tag": the link's own filter, when they are linked
        return next((x for x, y in p.links if {x, y} == {a, b}), "")
    if how.get("refers"):
        return _refer(p, a, b, how.get("as_parent", False))
    if (a, b) not in p.links and (b, a) not in p.links:
        p.links.append((a, b))
    for child, parent in ((a, b), (b, a)):
        if p.parents.get(child) == parent:
            del p.parents[child]
            p.relation_clauses.pop(child, None)
        # neither record is a field of the other, nor of itself ("a title and body, and notes can ...")
        p.fields[child] = [it for it in p.fields.get(child, []) if singular_name(it.label) not in (a, b)]
    return a


def _refer(p, a: str, b: str, as_parent: bool) -> str:
    """Record `a` refers to record `b` ("a hairstylist for each appointment": the appointment refers
    to a hairstylist): its parent when `as_parent` and it has none (and no cycle), else a reference
    field named after b. The relation read backwards (b belonging to a) is dropped; a pair the
    request links many-to-many is left as it is."""
    if (a, b) in p.links or (b, a) in p.links:
        return ""
    if p.parents.get(b) == a:
        del p.parents[b]
        p.relation_clauses.pop(b, None)
    if _refers(p, a, b):
        return a
    up, seen = b, set()
    while up in p.parents and up not in seen:   # b, or one of its parents, belongs to a: no cycle
        seen.add(up)
        up = p.parents[up]
    if as_parent and a not in p.parents and up != a:
        p.parents[a] = b
    else:
        p.fields.setdefault(a, []).append(FieldItem(words=b.split()))
    return a


def _ensure_record(p, name: str) -> str:
    if name not in p.entities:
        p.entities.append(name)
        p.plurals[name] = lx.pluralize(name)
        p.fields.setdefault(name, []).append(FieldItem(words=["name"]))
    return name


def _slot_field(spec: dict, record: str, p, toks: list[Tok], m: Match) -> str:
    """The JSON name of the record's field (or earlier computed value) a slot of a "computed"
    action names: {"kinds": [...], "words": set} (a field of one of those kinds with a word of that
    word set; "capture": c: a word of c), "computed": prefix (a computed name so starting),
    "any_of": [slots] (the first that names one); "" when none does."""
    if "any_of" in spec:
        return next((f for f in (_slot_field(s, record, p, toks, m) for s in spec["any_of"]) if f), "")
    if "computed" in spec:
        return next((n for n in p.computed.get(record, {}) if n.startswith(spec["computed"])), "")
    said = [toks[x].w for x in m.captures.get(spec.get("capture", ""), [])]
    words = set(word_set(spec["words"]) if "words" in spec else ()) | set(said)
    for it in p.fields.get(record, []):   # the field the capture names exactly ("minimum quantity", not "quantity")
        if said and list(it.words) == said and _item_kind(it, record) in spec["kinds"]:
            return field_ident(it.label)
    for it in p.fields.get(record, []):
        kind = _item_kind(it, record)
        if kind in spec["kinds"] and words & set(it.words):
            return field_ident(it.label)
    return ""


def _item_kind(it: FieldItem, record: str) -> str:
    hinted = {"int": "integer", "float": "decimal", "number": "decimal", "date": "date", "datetime": "datetime",
              "bool": "boolean", "text": "long_text"}
    return hinted.get(it.hint or "", "") or kind_in_record(it.words, record)[0]


def _computed(how: dict, p, toks: list[Tok], m: Match, record: str) -> str:
    """{"name": n, "expr": e, "slots": {slot: spec}}: the record gets the computed value n = e,
    "{slot}" in both replaced by the field it names (_slot_field), "{words}" in the name by the words
    of the capture "name_words" ("next {words} date": next_watering_date). A slot that names
    nothing: the row does nothing; a list of such tables: the first whose slots all name a field.
    "replaces_field": true: a field of the record with the value's name is the value, computed, not
    typed in ("each order shows its total, which is the quantity times the unit price")."""
    if not record:
        return ""
    if isinstance(how, list):   # alternatives: the first whose slots all name a field
        return next((r for r in (_computed(one, p, toks, m, record) for one in how) if r), "")
    found = {slot: _slot_field(spec, record, p, toks, m) for slot, spec in how["slots"].items()}
    if not all(found.values()):
        return ""
    name, expr = how["name"], how["expr"]
    for slot, ident in found.items():
        name, expr = name.replace("{" + slot + "}", ident), expr.replace("{" + slot + "}", ident)
    words = "_".join(toks[x].w for x in m.captures.get(how.get("name_words", ""), []) if toks[x].w.isalpha())
    name = "_".join(part for part in name.replace("{words}", words).split("_") if part)
    for extra in how.get("and_if_workflow", []):   # " and status != '{last}'" when it has a workflow
        states = p.workflows.get(record)
        if states:
            expr += extra.replace("{last}", states[-1])
    values = p.computed.setdefault(record, {})
    if how.get("replaces_field") and name not in found.values():   # "its total, which is a times b"
        p.fields[record] = [it for it in p.fields.get(record, []) if field_ident(it.label) != name]
    if name not in values and all(field_ident(it.label) != name for it in p.fields.get(record, [])):
        values[name] = expr
    return record


_NUMBERS = word_map("pattern_constructs.number_values")
_LIMIT_KINDS = ("integer",)


def _capacity(how: dict, p, toks: list[Tok], m: Match, named) -> str:
    """{"resource": c, "occupant": c, "limit": c, "limit_field": c, "per_date": c}: the records that
    take places of the resource (c names it) get the capacity feature: the occupant named (a record
    that belongs to or refers to the resource), else the only such record; a record named as the
    occupant with no relation to the resource becomes its child ("each session can have at most one
    volunteer"). Limit: the number of "limit" (digits or a number word), else the resource's
    whole-number field "limit_field" names ("its capacity"). With "per_date" captured, the
    occupant's first date field is part of the place. A workflow's last state frees the place."""
    resource = next(iter(named(how["resource"])), "")
    if not resource:
        return ""
    occupants = [e for e in p.entities if e != resource and _refers(p, e, resource)]
    asked = [r for r in named(how.get("occupant", "")) if r != resource]
    occupant = next((r for r in asked if r in occupants), "") or (occupants[0] if len(occupants) == 1 else "")
    if not occupant and asked and how.get("make_child") and asked[0] not in p.parents:
        occupant = asked[0]
        p.parents[occupant] = resource
        p.relation_clauses.setdefault(occupant, toks[m.anchor].clause)
    limit = _limit(how, p, toks, m, resource)
    if not occupant or limit is None:
        return ""
    cols = [py_ident(resource) if p.parents.get(occupant) == resource else _reference_label(p, occupant, resource)]
    if m.captures.get(how.get("per_date", "")):
        dated = [it.label for it in p.fields.get(occupant, []) if _item_kind(it, occupant) in ("date", "datetime")]
        if not dated:
            return ""
        cols.append(dated[0])
    options: dict = {"limit": limit}
    states = p.workflows.get(occupant, [])
    if len(states) > 1:
        options["while"] = states[:-1]
    clause = toks[m.anchor].clause
    p.features.append(("capacity", occupant, cols, clause))
    p.feature_options[("capacity", occupant)] = options
    return occupant


def _refers(p, record: str, resource: str) -> bool:
    return p.parents.get(record) == resource or bool(_reference_label(p, record, resource))


def _reference_label(p, record: str, resource: str) -> str:
    return next((it.label for it in p.fields.get(record, [])
                 if referenced_record(it.words, record, p.plurals) == resource), "")


def _limit(how: dict, p, toks: list[Tok], m: Match, resource: str) -> int | str | None:
    for x in m.captures.get(how.get("limit", ""), []):
        w = toks[x].w
        if w.isdigit() and 1 <= int(w) <= 1000:
            return int(w)
        if w in _NUMBERS:
            return int(_NUMBERS[w])
    words = {toks[x].w for x in m.captures.get(how.get("limit_field", ""), [])}
    field = next((it for it in p.fields.get(resource, []) if words & set(it.words)
                  and _item_kind(it, resource) in _LIMIT_KINDS), None)
    return field_ident(field.label) if field else None


def renamed_word(toks: list[Tok], captures: dict, rename: str | dict) -> str:
    """An action's "rename": the word given, or {"capture": c} the singular of c's first word
    ("Room: A bookable space with a name": the space is the room; with "plural": true the plural of
    its singular: "vaccine history (...)" read as "vaccines (...)")."""
    if isinstance(rename, str):
        return rename
    w = toks[captures[rename["capture"]][0]].w
    return lx.pluralize(lx.singularize(w)) if rename.get("plural") else singular_name(w)
