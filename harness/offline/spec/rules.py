"""Deterministic rule-based spec: a natural-language request (English or Vietnamese) -> AppSpec.

`rule_based_spec(request)` is the fallback used whenever no LLM answer is usable. It is pure
and deterministic: the same request gives a byte-identical `model_dump_json()` (lists and
insertion-ordered dicts only; sets are used for membership, never iterated).

Parsing passes over one token list, each marking the tokens it consumes:
unsupported features -> feature words (auth, dashboard, pages, stack, completion) -> field lists
("tasks with a title and due date") -> entity nouns -> relations -> completion targets.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed, build_spec
from harness.offline.spec.tokens import Tok, tokenize
from harness.errors import SpecError
from harness.models.spec import AppSpec

MAX_ENTITIES = 20      # more distinct nouns than this are ignored (with a note)
_WINDOW = 8            # how far (tokens) a completion word reaches for its entity
_MAX_WORD = 40         # longer "words" are noise, never names
_MAX_FEATURE = 120     # characters of an unsupported feature's text

NO_ENTITY_MESSAGE = ("no data entity recognized in the request; name what the app manages, "
                     "e.g. 'tasks' or 'products'")

_CLAUSE_END = frozenset(".;!?")
_STOPS = (lx.FUNCTION | lx.VERBS | lx.ADJECTIVES | lx.AUTH | lx.DASHBOARD | lx.COMPLETE | lx.APP_HEADS
          | lx.PAGE_WORDS | lx.API_WORDS)
_NON_ENTITY = lx.FUNCTION | lx.META | lx.ADJECTIVES | lx.DOMAIN_AREAS | lx.FIELD_ONLY


def _third_person(verb: str) -> str:
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + ("es" if verb.endswith(("s", "x", "z", "ch", "sh", "o")) else "s")


def _verb_forms(verbs: frozenset[str]) -> frozenset[str]:
    return frozenset(f for v in verbs for f in (v, _third_person(v)))


_VERB_FORMS = _verb_forms(lx.VERBS) - lx.VERB_NOUNS
_UNSUP_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _key in sorted(lx.UNSUPPORTED, key=lambda k: (-len(k), k)):
    _UNSUP_BY_FIRST.setdefault(_key[0], []).append(_key)


def rule_based_spec(request: str) -> AppSpec:
    """The AppSpec the rules infer from `request`; raises SpecError when it names nothing to build."""
    toks, vi, ignored = tokenize(request)
    p = Parsed(title_words=[(t.w, t.orig) for t in toks], vi=vi)
    if ignored:
        shown = ", ".join(dict.fromkeys(ignored[:10]))
        p.notes.append(f"words not in the Vietnamese lexicon were ignored: {shown}")
    _find_unsupported(toks, p)
    complete_idx = _find_features(toks, p)
    _find_field_lists(toks, p)
    mentions = _find_entities(toks, p)
    if not p.entities and not p.unsupported:
        raise SpecError(NO_ENTITY_MESSAGE)
    _find_relations(toks, mentions, p)
    _find_status(toks, mentions, complete_idx, p)
    return build_spec(p)


def _word(toks: list[Tok], i: int) -> str:
    return toks[i].w if 0 <= i < len(toks) else ""


def _is_word(t: Tok) -> bool:
    return bool(t.w) and t.w[0].isalnum()


# --- passes ----------------------------------------------------------------------------------------

def _find_unsupported(toks: list[Tok], p: Parsed) -> None:
    spans: list[list] = []
    i = 0
    while i < len(toks):
        key = next((k for k in _UNSUP_BY_FIRST.get(toks[i].w, ())
                    if tuple(_word(toks, i + j) for j in range(len(k))) == k), None)
        if key is None:
            i += 1
            continue
        if key == ("game",) and _word(toks, i + 1) not in lx.APP_NOUNS and _modifier_of(toks, i + 1):
            i += 1
            continue   # "game library", "game night": a modifier, not a request for a game
        start, end = i, i + len(key)
        steps = 0
        while start > 0 and steps < 3 and _modifier(toks[start - 1], p.vi):
            start, steps = start - 1, steps + 1
        if (len(key) == 1 and key[0] in lx.UNSUPPORTED_VERBS) or p.vi:
            end = _extend_right(toks, end, p.vi)
        if _word(toks, end) in lx.APP_NOUNS:
            end += 1
        if spans and (start <= spans[-1][1] or (
                start == spans[-1][1] + 1 and toks[start - 1].w in lx.FEATURE_GLUE)):
            spans[-1][1] = max(spans[-1][1], end)
            spans[-1][2].append(lx.UNSUPPORTED[key])
        else:
            spans.append([start, end, [lx.UNSUPPORTED[key]]])
        i += len(key)
    seen: list[str] = []
    for start, end, cats in spans:
        text = " ".join(t.orig for t in toks[start:end] if t.orig)[:_MAX_FEATURE]
        for t in toks[start:end]:
            t.used = True
        if "oauth" in cats:
            p.auth = True
        if text.lower() not in seen:
            seen.append(text.lower())
            p.unsupported.append((text, list(dict.fromkeys(cats))))


def _modifier_of(toks: list[Tok], j: int) -> bool:
    return j < len(toks) and _is_word(toks[j]) and toks[j].w not in _STOPS


def _modifier(t: Tok, vi: bool) -> bool:
    if not t.w:
        return vi
    return _is_word(t) and not t.used and t.w not in _STOPS


def _extend_right(toks: list[Tok], end: int, vi: bool) -> int:
    j = end
    while j < len(toks) and toks[j].w in lx.DETERMINERS:
        j += 1
    steps = 0
    while j < len(toks) and steps < (4 if vi else 3) and _modifier(toks[j], vi):
        j, steps = j + 1, steps + 1
    return j if steps else end


def _find_features(toks: list[Tok], p: Parsed) -> list[int]:
    complete_idx: list[int] = []
    for i, t in enumerate(toks):
        w = t.w
        if t.used or not w:
            continue
        if w in lx.AUTH:
            p.auth = p.auth or not (w in ("user", "users") and _word(toks, i + 1) in lx.MODALS)
        elif w in lx.DASHBOARD:
            p.dashboard = True
        elif w in lx.COMPLETE:
            if not (w.startswith("complete") and _word(toks, i - 1) in ("a", "an", "the", "fully")):
                complete_idx.append(i)
        elif w in lx.FRAMEWORKS:
            p.pages = True
            p.frameworks.append(lx.FRAMEWORKS[w])
        elif w in lx.PAGE_WORDS:
            p.pages = True
            p.web = p.web or w in lx.SITE_WORDS
            p.settings = p.settings or w == "settings"
        elif w in lx.API_WORDS:
            p.api = True
            if w == "graphql":
                p.notes.append("requested GraphQL; offline generator builds a REST JSON API")
        elif w in lx.OTHER_BACKENDS:
            p.notes.append(f"requested {lx.OTHER_BACKENDS[w]} backend; offline generator builds a "
                           "FastAPI backend")
        elif w in lx.OTHER_DBS:
            p.notes.append(f"requested {lx.OTHER_DBS[w]} database; offline generator uses SQLite")
        else:
            continue
        t.used = True
    return complete_idx


def _is_noun(toks: list[Tok], i: int) -> bool:
    """Whether token i names a record type (an entity candidate)."""
    t = toks[i]
    w = t.w
    if t.used or not w or not w[0].isalpha():
        return False
    if " " in w:
        return True
    sing = singular_name(w)
    if not 2 <= len(w) <= _MAX_WORD or w in _NON_ENTITY or sing in _NON_ENTITY:
        return False
    if sing in lx.NON_GOAL_WORDS or lx.pluralize(sing) in lx.NON_GOAL_WORDS:
        return False   # "io" -> "ios" would read as the mobile-app non-goal
    plural = sing != w
    if w.endswith("ly") and w not in lx.NOUN_LY:
        return False   # adverbs
    if not plural and ((w.endswith("ing") and w not in lx.NOUN_ING) or (w.endswith("ed") and len(w) > 4)):
        return False   # gerunds and participles
    if w in lx.PEOPLE_SUBJECTS and _word(toks, i + 1) in lx.MODALS:
        return False
    if sing in lx.VERB_NOUNS:
        if plural:
            return _word(toks, i - 1) not in lx.REL_PRONOUNS
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        return _word(toks, i - 1) in lx.DETERMINERS or (nxt is not None and nxt.w in lx.APP_HEADS)
    return w not in _VERB_FORMS and sing not in _VERB_FORMS


def singular_name(w: str) -> str:
    """Singular of a (possibly multi-word) noun: only the last word is inflected."""
    head, _, last = w.rpartition(" ")
    sing = lx.singularize(last)
    return f"{head} {sing}" if head else sing


def _find_field_lists(toks: list[Tok], p: Parsed) -> None:
    for i, t in enumerate(toks):
        if t.w not in lx.FIELD_TRIGGERS or t.used:
            continue
        j = i - 1
        while j >= 0 and toks[j].w in lx.FILLER:
            j -= 1
        strict = False
        if j < 0:
            continue
        if not _is_noun(toks, j):
            if t.w not in lx.LOOSE_TRIGGERS or toks[j].w not in lx.APP_HEADS:
                continue
            while j >= 0 and toks[j].w in lx.APP_HEADS:
                j -= 1
            if j < 0 or not _is_noun(toks, j):
                continue
            strict = True
        items, consumed = _parse_fields(toks, i + 1, strict)
        if items:
            p.fields.setdefault(singular_name(toks[j].w), []).extend(items)
            for k in consumed:
                toks[k].used = True


def _parse_fields(toks: list[Tok], start: int, strict: bool) -> tuple[list, list[int]]:
    items: list[tuple[list[str], bool | None, str | None]] = []
    consumed: list[int] = []
    words: list[str] = []
    idx: list[int] = []
    flag: list[bool | None] = [None]
    hint: list[str | None] = [None]

    def commit() -> bool:
        if not words:
            idx.clear()
            return True
        last = words[-1]
        sing = lx.singularize(last)
        if sing != last and last not in lx.KEEP_PLURAL_FIELDS and (
                sing not in lx.FIELD_VOCAB or sing in lx.FIELD_NOUNS):
            return False   # a plural record noun ends the field list ("... and projects")
        if strict and sing not in lx.FIELD_VOCAB and last not in lx.FIELD_VOCAB:
            return False
        items.append((words[:-1] + [last if last in lx.KEEP_PLURAL_FIELDS else sing], flag[0], hint[0]))
        consumed.extend(idx)
        words.clear(), idx.clear()
        flag[0] = hint[0] = None
        return True

    j = start
    while j < len(toks):
        t = toks[j]
        if t.used or not t.w:
            break
        if t.w in lx.SEPARATORS:
            if not commit():
                return items, consumed
        elif not t.w[0].isalnum():
            break
        elif t.w in lx.DETERMINERS or t.w in lx.FIELD_SKIP:
            idx.append(j)
        elif t.w in ("optional", "required", "mandatory"):
            flag[0] = t.w != "optional"
            idx.append(j)
        elif t.w == "in" and words and _word(toks, j + 1) in lx.UNIT_TYPES:
            hint[0] = lx.UNIT_TYPES[toks[j + 1].w]
            idx.extend((j, j + 1))
            j += 1
        elif words and t.w.endswith("ed") and len(t.w) > 4 and t.w not in lx.FIELD_VOCAB:
            idx.append(j)   # "calories burned": the participle adds nothing to the column
        elif _field_word(t.w) and len(words) < 3:
            words.append(t.w)
            idx.append(j)
        else:
            break
        j += 1
    commit()
    return items, consumed


def _field_word(w: str) -> bool:
    if not w[0].isalpha() or " " in w or len(w) > _MAX_WORD:
        return False
    if w in lx.FIELD_VOCAB or lx.singularize(w) in lx.FIELD_VOCAB:
        return True
    return not (w in lx.FUNCTION or w in _VERB_FORMS or w in lx.META or w in _STOPS
                or w.endswith("ly"))


def _find_entities(toks: list[Tok], p: Parsed) -> dict[int, str]:
    mentions: dict[int, str] = {}
    overflow: dict[str, None] = {}
    for i in range(len(toks)):
        if not _is_noun(toks, i):
            continue
        name = singular_name(toks[i].w)
        if name not in p.plurals:
            if len(p.entities) >= MAX_ENTITIES:
                overflow[name] = None
                continue
            p.entities.append(name)
            p.plurals[name] = toks[i].w if toks[i].w != name else lx.pluralize(name)
        elif p.plurals[name] == lx.pluralize(name) and toks[i].w not in (name, p.plurals[name]):
            p.plurals[name] = toks[i].w   # the user's own plural beats the generated one
        mentions[i] = name
    if overflow:
        p.notes.append(f"{len(overflow)} more entities ignored (cap {MAX_ENTITIES})")
    if not p.entities and not p.unsupported:
        implied = next((lx.IMPLIED_ENTITY[t.w] for t in toks if t.w in lx.IMPLIED_ENTITY), None)
        if implied:
            p.entities.append(implied)
            p.plurals[implied] = lx.pluralize(implied)
            p.notes.append(f"no record type named; assumed {p.plurals[implied]}")
    return mentions


def _mention_after(toks: list[Tok], j: int, mentions: dict[int, str]) -> str | None:
    while j < len(toks) and toks[j].w in lx.QUANTIFIERS:
        j += 1
    return mentions.get(j)


def _find_relations(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    found: list[tuple[str | None, str | None]] = []
    for i, name in mentions.items():
        w1, w2 = _word(toks, i + 1), _word(toks, i + 2)
        if w1 in ("and", "with") and w2 in ("their", "its"):
            found.append((mentions.get(i + 3), name))
        if w1 in ("in", "within", "inside", "under", "per") or (
                w1 in ("for", "of") and w2 in lx.DETERMINERS | {"every"}):
            found.append((name, _mention_after(toks, i + 2, mentions)))
        j = i + 1
        while _word(toks, j) in lx.FILLER:
            j += 1
        if _word(toks, j) in lx.BELONG and _word(toks, j + 1) in ("to", "into", "under", "by", "in", "with"):
            found.append((name, _mention_after(toks, j + 2, mentions)))
        elif _word(toks, j) == "part" and _word(toks, j + 1) == "of":
            found.append((name, _mention_after(toks, j + 2, mentions)))
        elif _word(toks, j) in lx.HAVE:
            found.append((_mention_after(toks, j + 1, mentions), name))
    for name in p.entities:   # a field naming another entity is a relation ("tasks with a project")
        for words, _flag, _hint in p.fields.get(name, []):
            if " ".join(words) in p.plurals:
                found.append((name, " ".join(words)))
    for child, parent in found:
        if child is None or parent is None or child == parent:
            continue
        if child in p.parents:
            note = (f"{child} is also linked to {parent}; only one parent per entity is "
                    f"supported ({child} belongs to {p.parents[child]})")
        elif _is_ancestor(child, parent, p.parents):
            note = f"{child} cannot belong to {parent}: {parent} already belongs to {child}"
        else:
            p.parents[child] = parent
            continue
        if p.parents.get(child) != parent and note not in p.notes:
            p.notes.append(note)
    for parent, child in lx.KNOWN_PARENTS:   # implied pairs only where nothing was said
        if child in p.plurals and parent in p.plurals and child not in p.parents \
                and not _is_ancestor(child, parent, p.parents):
            p.parents[child] = parent


def _is_ancestor(node: str, of: str, parents: dict[str, str]) -> bool:
    cur: str | None = of
    for _ in range(len(parents) + 1):
        if cur == node:
            return True
        cur = parents.get(cur) if cur else None
    return False


def _find_status(toks: list[Tok], mentions: dict[int, str], complete_idx: list[int], p: Parsed) -> None:
    clause: list[int] = []
    n = 0
    for t in toks:
        n += t.w in _CLAUSE_END
        clause.append(n)
    targets: list[str] = []
    for c in complete_idx:
        for d in range(1, _WINDOW + 1):
            hit = next((mentions[j] for j in (c - d, c + d)
                        if j in mentions and clause[j] == clause[c]), None)
            if hit:
                targets.append(hit)
                break
    if complete_idx:
        targets.extend(e for e in p.entities if e.rpartition(" ")[2] in lx.STATUS_NOUNS)
    for name in targets:
        if name in p.plurals and name not in p.status:
            p.status.append(name)
