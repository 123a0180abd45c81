"""Deterministic rule-based spec: a natural-language request (English or Vietnamese) -> AppSpec.

`rule_based_spec(request)` is the fallback used whenever no LLM answer is usable. It is pure
and deterministic: the same request gives a byte-identical `model_dump_json()` (lists and
insertion-ordered dicts only; sets are used for membership, never iterated).

Parsing passes over one token list, each marking the tokens it consumes:
unsupported features -> feature words (auth, dashboard, pages, stack, completion) -> field lists
("tasks with a title and due date") -> entity nouns -> relations -> completion targets.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from harness.agents import spec_lexicon as lx
from harness.agents.spec_build import MAX_FIELDS, build_spec
from harness.errors import SpecError
from harness.generators.naming import ascii_fold
from harness.models.spec import AppSpec

MAX_ENTITIES = 20      # more distinct nouns than this are ignored (with a note)
_WINDOW = 8            # how far (tokens) a completion word reaches for its entity

NO_ENTITY_MESSAGE = ("no data entity recognized in the request; name what the app manages, "
                     "e.g. 'tasks' or 'products'")

_TOKEN_RE = re.compile(r"\w+(?:[-'’.]\w+)*|[,;:.!?()/&+]")
_CLAUSE_END = frozenset(".;!?")
_SEPARATORS = frozenset({",", "/", "&", "+", "and", "or", "plus"})
_SITE_WORDS = frozenset({"web", "webapp", "website", "websites", "site"})
_TRIGGERS = frozenset({"with", "having", "has", "have", "containing", "contains", "including", "(", ":"})
_LOOSE_TRIGGERS = frozenset({"with", "having", "including"})
_BELONG = frozenset({"belong", "belongs", "belonging", "assigned", "attached", "linked", "tied", "grouped"})
_HAVE = frozenset({"has", "have", "contain", "contains", "own", "owns", "include", "includes"})
_FILLER = frozenset({"that", "which", "who", "each", "can", "could", "may", "are", "is", "must",
                     "should", "will", "always", "all", "also", "usually"})
_QUANTIFIERS = lx.DETERMINERS | frozenset({"many", "multiple", "several", "more", "or", "list", "lots",
                                           "of", "set", "number", "bunch", "collection", "zero"})
_FEATURE_GLUE = frozenset({"via", "using", "through", "with", "in", "on", "over"})
_APP_NOUNS = frozenset({"app", "application", "system", "platform", "game", "website", "site", "client",
                        "version", "board"})
_STOPS = (lx.FUNCTION | lx.VERBS | lx.ADJECTIVES | lx.AUTH | lx.DASHBOARD | lx.COMPLETE | lx.APP_HEADS
          | lx.PAGE_WORDS | lx.API_WORDS)
_NON_ENTITY = lx.FUNCTION | lx.META | lx.ADJECTIVES | lx.DOMAIN_AREAS | lx.FIELD_ONLY


def _verb_forms(verbs: frozenset[str]) -> frozenset[str]:
    return frozenset(f for v in verbs for f in (v, v + "s", v + "es", v[:-1] + "ies"))


_VERB_FORMS = _verb_forms(lx.VERBS) - lx.VERB_NOUNS
_UNSUP_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _key in sorted(lx.UNSUPPORTED, key=lambda k: (-len(k), k)):
    _UNSUP_BY_FIRST.setdefault(_key[0], []).append(_key)


@dataclass
class Tok:
    w: str              # normalized lowercase English word or punctuation ("" = ignored word)
    orig: str           # the user's own text for this token
    used: bool = False  # consumed by an earlier pass


@dataclass
class Parsed:
    """What the passes found; `spec_build.build_spec` turns it into an AppSpec."""

    title_tokens: list[Tok]
    vi: bool
    entities: list[str] = field(default_factory=list)            # singular names, mention order
    plurals: dict[str, str] = field(default_factory=dict)
    fields: dict[str, list[tuple[list[str], bool | None]]] = field(default_factory=dict)
    parents: dict[str, str] = field(default_factory=dict)
    status: list[str] = field(default_factory=list)
    unsupported: list[tuple[str, list[str]]] = field(default_factory=list)
    auth: bool = False
    dashboard: bool = False
    pages: bool = False
    web: bool = False
    api: bool = False
    settings: bool = False
    frameworks: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def rule_based_spec(request: str) -> AppSpec:
    """The AppSpec the rules infer from `request`; raises SpecError when it names nothing to build."""
    toks, vi, ignored = tokenize(request)
    p = Parsed(title_tokens=list(toks), vi=vi)
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


# --- tokens ----------------------------------------------------------------------------------------

def tokenize(request: str) -> tuple[list[Tok], bool, list[str]]:
    """Tokens of `request` (Vietnamese phrases mapped to English), whether it is Vietnamese, and
    the Vietnamese words the lexicon does not know."""
    text = unicodedata.normalize("NFC", request or "")
    vi = sum(ch in lx.VI_MARKERS for ch in text.lower()) >= 2
    raw = _TOKEN_RE.findall(text)
    ignored: list[str] = []
    toks = _map_vietnamese(raw, ignored) if vi else [Tok(ascii_fold(r.lower()), r) for r in raw]
    for t in toks:
        t.w = lx.HYPHEN_FORMS.get(t.w, t.w)
        if t.w.endswith(("'s", "’s")):
            t.w = t.w[:-2]
    return _merge_phrases(toks), vi, ignored


def _map_vietnamese(raw: list[str], ignored: list[str]) -> list[Tok]:
    out: list[Tok] = []
    i = 0
    while i < len(raw):
        for n in range(min(lx.VI_MAX_WORDS, len(raw) - i), 0, -1):
            key = tuple(lx.normalize_vi(r.lower()) for r in raw[i:i + n])
            if key in lx.VI_LEXICON:
                english = lx.VI_LEXICON[key].lower().split()
                origs = [" ".join(raw[i:i + n])] + [""] * (len(english) - 1)
                out.extend(Tok(w, o) for w, o in zip(english, origs))
                i += n
                break
        else:
            low = raw[i].lower()
            if low.isascii():
                out.append(Tok(low, raw[i]))
            else:
                ignored.append(raw[i])
                out.append(Tok("", raw[i]))
            i += 1
    return out


def _merge_phrases(toks: list[Tok]) -> list[Tok]:
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        pair = (toks[i].w, toks[i + 1].w) if i + 1 < len(toks) else None
        if pair in lx.PHRASES:
            out.append(Tok(lx.PHRASES[pair], f"{toks[i].orig} {toks[i + 1].orig}".strip()))
            i += 2
        else:
            out.append(toks[i])
            i += 1
    return out


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
        start, end = i, i + len(key)
        steps = 0
        while start > 0 and steps < 3 and _modifier(toks[start - 1], p.vi):
            start, steps = start - 1, steps + 1
        if (len(key) == 1 and key[0] in lx.UNSUPPORTED_VERBS) or p.vi:
            end = _extend_right(toks, end, p.vi)
        if _word(toks, end) in _APP_NOUNS:
            end += 1
        if spans and (start <= spans[-1][1] or (
                start == spans[-1][1] + 1 and toks[start - 1].w in _FEATURE_GLUE)):
            spans[-1][1] = max(spans[-1][1], end)
            spans[-1][2].append(lx.UNSUPPORTED[key])
        else:
            spans.append([start, end, [lx.UNSUPPORTED[key]]])
        i = len(key) + i
    seen: list[str] = []
    for start, end, cats in spans:
        text = " ".join(t.orig for t in toks[start:end] if t.orig)
        for t in toks[start:end]:
            t.used = True
        if "oauth" in cats:
            p.auth = True
        if text.lower() not in seen:
            seen.append(text.lower())
            p.unsupported.append((text, list(dict.fromkeys(cats))))


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
            p.web = p.web or w in _SITE_WORDS
            p.settings = p.settings or w == "settings"
        elif w in lx.API_WORDS:
            p.api = True
            if w == "graphql":
                p.notes.append("requested GraphQL; offline generator builds a REST JSON API")
        elif w in lx.OTHER_BACKENDS:
            p.notes.append(f"requested {lx.OTHER_BACKENDS[w]} backend; offline generator builds a FastAPI backend")
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
    if len(w) < 2 or w in _NON_ENTITY or sing in _NON_ENTITY:
        return False
    plural = sing != w
    if (w.endswith("ly") and w not in lx.NOUN_LY) or (not plural and w.endswith("ing") and w not in lx.NOUN_ING):
        return False
    if not plural and w.endswith("ed") and len(w) > 4:
        return False
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
        if t.w not in _TRIGGERS or t.used:
            continue
        j = i - 1
        while j >= 0 and toks[j].w in _FILLER:
            j -= 1
        strict = False
        if j < 0:
            continue
        if not _is_noun(toks, j):
            if t.w not in _LOOSE_TRIGGERS or toks[j].w not in lx.APP_HEADS:
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
    items: list[tuple[list[str], bool | None]] = []
    consumed: list[int] = []
    words: list[str] = []
    idx: list[int] = []
    flag: list[bool | None] = [None]

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
        items.append((words[:-1] + [last if last in lx.KEEP_PLURAL_FIELDS else sing], flag[0]))
        consumed.extend(idx)
        words.clear(), idx.clear()
        flag[0] = None
        return True

    j = start
    while j < len(toks):
        t = toks[j]
        if t.used or not t.w:
            break
        if t.w in _SEPARATORS:
            if not commit():
                return items, consumed
        elif not t.w[0].isalnum():
            break
        elif t.w in lx.DETERMINERS or t.w in lx.FIELD_SKIP:
            idx.append(j)
        elif t.w in ("optional", "required", "mandatory"):
            flag[0] = t.w != "optional"
            idx.append(j)
        elif _field_word(t.w) and len(words) < 3:
            words.append(t.w)
            idx.append(j)
        else:
            break
        j += 1
    commit()
    return items, consumed


def _field_word(w: str) -> bool:
    if not w[0].isalpha() or " " in w:
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
    while j < len(toks) and toks[j].w in _QUANTIFIERS:
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
        while _word(toks, j) in _FILLER:
            j += 1
        if _word(toks, j) in _BELONG and _word(toks, j + 1) in ("to", "into", "under", "by", "in", "with"):
            found.append((name, _mention_after(toks, j + 2, mentions)))
        elif _word(toks, j) == "part" and _word(toks, j + 1) == "of":
            found.append((name, _mention_after(toks, j + 2, mentions)))
        elif _word(toks, j) in _HAVE:
            found.append((_mention_after(toks, j + 1, mentions), name))
    for name in p.entities:   # a field naming another entity is a relation ("tasks with a project")
        for words, _flag in p.fields.get(name, []):
            if " ".join(words) in p.plurals:
                found.append((name, " ".join(words)))
    for child, parent in found:
        if child is None or parent is None or child == parent:
            continue
        if child not in p.parents and not _is_ancestor(child, parent, p.parents):
            p.parents[child] = parent
        elif p.parents.get(child, parent) != parent:
            note = (f"{child} is also linked to {parent}; only one parent per entity is "
                    f"supported ({child} belongs to {p.parents[child]})")
            if note not in p.notes:
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
