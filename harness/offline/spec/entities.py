"""Entities only from entity positions.

A noun becomes a record type when it stands where requests name what an app stores: the object
of manage/track/store/record/list/add…, the list after "an app with/for", "each X has" (the rows of
the pass "entity positions", patterns/entity_introducers.jsonl), the noun before an app head
("recipe app", "task management"), the subject of "X belongs to / X with <fields>", a bare list of
nouns, or a parent after "in/of/for each" (here). UI words, function words, adjectives, URLs,
e-mail addresses and brand-like capitalised words never are.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.nouns import FIELD_WORDS as _FIELD_WORDS
from harness.offline.spec.nouns import PLACES, is_noun, mark_brands, singular_name
from harness.offline.spec.nouns import word_at as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("entities")

__all__ = ["find_entities", "is_noun", "mark_brands", "singular_name"]

_SKIP = lx.DETERMINERS | lx.QUANTIFIERS | lx.ADJECTIVES | WORDS.skip_extra


_LONG_REQUEST = 6                       # clauses
MAX_ENTITIES = 20      # more entities than this are ignored, said on the terminal and in the summary


def _has_login(toks: list[Tok], j: int) -> bool:
    """ "each teacher should have a login": the noun is an account holder, not a record type."""
    window = [toks[k].role for k in range(j, min(j + 5, len(toks))) if toks[k].clause == toks[j].clause]
    return "auth" in window


def verb_like(toks: list[Tok], j: int) -> bool:
    w = _word(toks, j)
    return bool(w) and (rl.is_supported_verb(w) or w in lx.VERBS) and not is_noun(toks, j)


def owner(toks: list[Tok], k: int) -> bool:
    """ "the user's recipes", "all users' recipes": a possessive account holder reads like "their"."""
    return toks[k].possessive and lx.singularize(toks[k].w) in rl.ACTOR_WORDS and is_noun(toks, k + 1)


def phrase_heads(toks: list[Tok], j: int) -> list[int]:
    """Head indices of a (coordinated) noun phrase list starting at j."""
    heads: list[int] = []
    while j < len(toks) and len(heads) < 1000:
        k = j
        while k < len(toks) and (toks[k].w in _SKIP or toks[k].w.isdigit() or owner(toks, k)
                                 or (toks[k].w == "/" and _word(toks, k + 1) in _SKIP)
                                 or (toks[k].w in _FIELD_WORDS and not toks[k].used and is_noun(toks, k + 1)
                                     and toks[k + 1].clause == toks[k].clause)):   # "total income"
            k += 1
        if k < len(toks) and toks[k].used and toks[k].role in WORDS.feature_roles:
            m = k + 1
        else:
            m = k
            while m < len(toks) and m - k < 3 and is_noun(toks, m):
                m += 1
            if m == k:
                break
            heads.append(m - 1)
        if m < len(toks) and toks[m].w in WORDS.sep:
            j = m + 1 + (_word(toks, m + 1) in WORDS.sep)
            continue
        break
    return heads


def records_have_records(toks: list[Tok], i: int) -> bool:
    """ "Owners have pets.", "Customers have orders and invoices.": a record noun (plural, or after
    each/every) has plural record nouns that end the clause — record types, the second the first's
    children. Not a list of columns ("tasks have notes") or of media ("products have photos")."""
    subject = i - 1
    if not is_noun(toks, subject) or toks[subject].clause != toks[i].clause:
        return False
    if lx.singularize(toks[subject].w) == toks[subject].w and _word(toks, subject - 1) not in WORDS.each:
        return False
    heads = phrase_heads(toks, i + 1)
    if not heads or _word(toks, heads[-1] + 1) not in (".", "", ";") \
            or toks[heads[-1]].clause != toks[i].clause:
        return False
    return all(lx.singularize(toks[h].w) != toks[h].w and lx.singularize(toks[h].w) not in lx.FIELD_VOCAB
               and toks[h].w not in lx.MEDIA_FILES for h in heads)


def _positions(toks: list[Tok], p) -> list[tuple[int, str]]:
    """(token index, rule) of every entity position."""
    out: list[tuple[int, str]] = [(i, "fields") for i in p.field_subjects]
    out += [(i, "object") for i in p.object_positions]   # a table row's "introduce" (pass "record objects")
    table: dict[int, list[tuple[int, str]]] = {}   # the rows of "entity positions", "record heads", by anchor
    for anchor, head, rule in p.positions:
        table.setdefault(anchor, []).append((head, rule))
    return out + [position for i in sorted(table) for position in table[i]]


def bare_subject(toks: list[Tok], i: int) -> bool:
    """The noun at i opens a clause that names records and what they have ("Projects and tasks.", "each task
    has", "tasks within projects"), not the app itself ("The project has a login and sign up")."""
    return _clause_start(toks, i) and _bare_subject(toks, i) and not _has_login(toks, phrase_heads(toks, i)[-1] + 1)


def _not_a_record(toks: list[Tok], i: int, rule: str, positions: list[tuple[int, str]]) -> bool:
    """Positions that name something else than a record type: "the checkout page" (a page),
    "employee accounts" (a kind of user), "the meal name" (a column), and the activity before an
    app head when its clause names a record ("a booking platform to take appointments")."""
    if rule == "fields":
        return False
    nxt = _word(toks, i + 1)
    if nxt in rl.NAV_HEADS or nxt in rl.ACCOUNT_WORDS or (nxt in lx.FIELD_ONLY and rule == "object"):
        return True
    if rule == "object" and _agent(toks, i):
        return True
    if rule in ("app-head", "tool-head") and toks[i].w.endswith("ing"):
        plural = lx.pluralize(toks[i].w)   # "a booking app ... my bookings": the activity is records too
        if any(t.w == plural and t.clause != toks[i].clause and is_noun(toks, k) for k, t in enumerate(toks)):
            return False
        return any(k != i and toks[k].clause == toks[i].clause and r not in ("app-head", "tool-head")
                   for k, r in positions)
    return False




def _agent(toks: list[Tok], i: int) -> bool:
    """ "Create a computer player which can win the game": a singular thing a product verb makes
    and that is described by what it does is part of the product, not a record type."""
    k = i - 1
    while k >= 0 and toks[k].clause == toks[i].clause and (is_noun(toks, k) or toks[k].w in ("a", "an")):
        k -= 1
    verb = _word(toks, k)
    if toks[i].w != singular_name(toks[i].w) or (verb not in WORDS.product_verbs and rl.verb_base(verb) not in WORDS.product_verbs):
        return False
    rel, nxt = _word(toks, i + 1), _word(toks, i + 2)   # "which can win", not "which has a title"
    return rel in WORDS.agent_pronouns and nxt not in lx.HAVE | lx.BELONG | {"is", "are"}


_STORY_SUBJECTS = rl.ACTOR_WORDS | WORDS.story_subjects_extra


def _story_clause(toks: list[Tok], i: int) -> bool:
    """ "User can schedule an appointment", "I want to add ...": a story says what its user acts on."""
    k = i
    while k > 0 and toks[k - 1].clause == toks[i].clause:
        k -= 1
    while k < i and not toks[k].w[:1].isalpha():
        k += 1   # "[ ]" checkboxes
    if rl.is_entity_verb(toks[k].w) and k < i and toks[k].w not in WORDS.product_verbs:
        return True   # an imperative feature bullet: "Manage supplier information"
    return toks[k].w in _STORY_SUBJECTS and _word(toks, k + 1) in WORDS.story_modals


def bullet_heads(toks: list[Tok], j: int) -> list[int]:
    """The leading noun of each clause after "... I track:" (bullet items), up to the first item
    that does not start with one."""
    heads: list[int] = []
    while j < len(toks) and toks[j].w == ".":
        k = j + 1
        while k < len(toks) and toks[k].w == ".":
            k += 1
        item = phrase_heads(toks, k) if k < len(toks) and is_noun(toks, k) else []
        if not item:
            break
        heads += item
        j = k
        while j < len(toks) and toks[j].w != ".":
            j += 1
    return heads


def _purpose_verb(toks: list[Tok], i: int) -> bool:
    """Whether the entity verb before object i says what the app does ("an app that takes
    attendance") rather than what is built ("Create a money transfer application")."""
    for k in range(i - 1, -1, -1):
        if toks[k].clause != toks[i].clause:
            return False
        if rl.is_entity_verb(toks[k].w):
            return rl.verb_base(toks[k].w) not in WORDS.product_verbs and toks[k].w not in WORDS.product_verbs
    return False


def _bare_subject(toks: list[Tok], i: int) -> bool:
    """ "Projects and tasks.", "Tasks: title, due date", "each task has", "tasks within projects"."""
    heads = phrase_heads(toks, i)
    if not heads:
        return False
    after = _word(toks, heads[-1] + 1)
    if after in (".", "") and (len(heads) >= 2 or lx.singularize(toks[heads[0]].w) != toks[heads[0]].w):
        return True
    if after in lx.HAVE or after in lx.BELONG:
        return True
    if after in WORDS.parent_prep or after == "of":
        rest = phrase_heads(toks, heads[-1] + 2)
        return bool(rest) and _word(toks, rest[-1] + 1) in (".", "")
    return after in WORDS.modals and _word(toks, heads[-1] + 2) in WORDS.be_have


def _clause_start(toks: list[Tok], i: int) -> bool:
    j = i - 1
    while j >= 0 and toks[j].clause == toks[i].clause and toks[j].w in _SKIP:
        j -= 1
    return j < 0 or toks[j].clause != toks[i].clause or toks[j].w in WORDS.clause_marks


def _add(toks: list[Tok], p, i: int, rule: str, cap: int) -> None:
    """The record type the noun at i names, found by `rule` (beyond the cap: p.overflow)."""
    name = singular_name(toks[i].w)
    p.entity_rules.setdefault(name, rule)
    if not toks[i].w[:1].isalpha() or name in p.plurals:   # a record type is named by a word, never ")" or "/"
        return
    if len(p.entities) >= cap:
        p.overflow += [] if name in p.overflow else [name]
        return
    p.entities.append(name)
    p.plurals[name] = toks[i].w if toks[i].w != name else lx.pluralize(name)


def find_entities(toks: list[Tok], p, cap: int = MAX_ENTITIES) -> dict[int, str]:
    """Record entities found at entity positions; returns every mention index -> singular name, with
    the mentions consumed (the parents after "in/of/for each": add_parents)."""
    p.overflow = []
    long_request = len({t.clause for t in toks}) >= _LONG_REQUEST
    counts: dict[str, int] = {}
    for t in toks:
        if t.w[:1].isalpha():
            counts[singular_name(t.w)] = counts.get(singular_name(t.w), 0) + 1
    positions = _positions(toks, p)
    fallback: list[int] = []
    for i, rule in positions:
        name = singular_name(toks[i].w)
        if _not_a_record(toks, i, rule, positions):
            continue
        if long_request and rule in WORDS.weak_rules and counts.get(name, 0) < 2 \
                and not (rule == "object" and (toks[i].clause == 0 and _purpose_verb(toks, i)
                                               or _story_clause(toks, i))):
            if rule == "app-head" and toks[i].clause == 0:
                fallback.append(i)
            continue   # in a long request a record type is named more than once (or in its purpose)
        _add(toks, p, i, rule, cap)
    for i in fallback if not p.entities else ():   # "a time card app ..." and no record named again
        _add(toks, p, i, "app-head", cap)
    return _mentions(toks, p)


def add_parents(toks: list[Tok], p, cap: int = MAX_ENTITIES) -> dict[int, str]:
    """The records the rows of "parent entities" read after a mention ("tasks in a project", "ingredients
    for each recipe", "transactions based on categories"), then every mention again."""
    for _anchor, head, rule in p.positions:
        if rule == "parent":
            _add(toks, p, head, rule, cap)
    mentions = _mentions(toks, p)
    if p.overflow:
        p.notes.append(f"{len(p.overflow)} more entities ignored (cap {cap})")
    return mentions


def _mentions(toks: list[Tok], p) -> dict[int, str]:
    out: dict[int, str] = {}
    for i, t in enumerate(toks):
        if t.used and not t.role.startswith("entity:"):
            continue
        name = singular_name(t.w) if t.w and t.w[0].isalpha() else ""
        if name in p.plurals and (t.role.startswith("entity:") or is_noun(toks, i) or " " in t.w
                                  or (name in PLACES and not t.used)
                                  or _word(toks, i + 1) in lx.APP_HEADS):   # "a budget tracker": its records
            if p.plurals[name] == lx.pluralize(name) and t.w not in (name, p.plurals[name]):
                p.plurals[name] = t.w   # the user's own plural beats the generated one
            t.used, t.role = True, f"entity:{name}"
            out[i] = name
            for k in range(i - 1, max(-1, i - 3), -1):   # compound modifiers: "book loans"
                if toks[k].clause == t.clause and is_noun(toks, k) and _word(toks, k + 1) != "and":
                    toks[k].used, toks[k].role = True, f"entity:{name}"
                else:
                    break
    return out

