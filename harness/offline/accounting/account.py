"""Word accounting: every content word of every clause is realised by an element of the finished
spec, or is a function/framing word of the closed lists, or the clause is not built.

It reads the clause text and the finished spec only (never how the parser got there), so a
parser that reads a request wrongly cannot also grade itself: "number of pages" with a field
"number of" leaves "pages" unaccounted, "a 2048 game" leaves "2048".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.offline.accounting import context as bg
from harness.offline.accounting.app_name import app_name_words
from harness.offline.accounting.clause_records import after_link, clause_records, owner_of, possessed
from harness.offline.accounting.elements import SpecWords, spec_words
from harness.offline.accounting.everyone_asks import everyone_asks
from harness.offline.accounting.framing_position import framing_by_position
from harness.offline.accounting.identity_asks import identity_asks
from harness.offline.accounting.introduced import problem_framing, reject_invented
from harness.offline.accounting.comparison_asks import comparison_asks
from harness.offline.accounting.count_asks import average_asks, count_asks
from harness.offline.accounting.grouping_asks import grouping_asks
from harness.offline.accounting.qualifier_asks import qualifier_asks
from harness.offline.accounting.status_states import per_day_asks, status_asks
from harness.offline.accounting.story_parts import ACTOR, NEGATED, PURPOSE, SELF_INTRO, story_parts
from harness.offline.accounting.open_lists import OPEN_LIST, open_list_marks
from harness.offline.accounting.record_sets import record_sets
from harness.offline.accounting.record_lists import list_items, per_record_scope
from harness.offline.accounting.relation_asks import relation_asks
from harness.offline.accounting.required_asks import required_asks
from harness.offline.accounting.rule_asks import rule_asks
from harness.offline.accounting.role_rights import role_rights
from harness.offline.accounting.lexicon import (closed, closed_stems, element_words, example_indices, is_vietnamese,
                                                keyed_words, listed_forms, same_form, same_listed_word, stem,
                                                token_gaps, tokens, vi_norm, vi_phrases, word_list)
from harness.models.spec import AppSpec
from harness.utils.spared_actions import spared_at

FUNCTION = "function word"
FRAMING = "request framing"
HEADING = "heading"
EXAMPLE = "an example value"
_CAMEL = re.compile(r"[a-z]{2,}(?:[A-Z][a-z]+)+")
_CAMEL_CUT = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Before a page word, these make it a count of pages ("number of pages", "how many pages"), not an
# HTML page of the app.
_PAGE_COUNT = closed("page count words")
_PAGE_STEMS = closed_stems("page nouns")
_SKIP = closed("record determiners")
_PLURAL_RECORDS = closed("plural records")
_PLURAL_RECORDS_STEMS = closed_stems("plural records")


@dataclass
class ClauseWords:
    """One clause's accounting: word -> what realises it, and the unaccounted words as phrases."""

    words: dict[str, str] = field(default_factory=dict)
    unaccounted: list[str] = field(default_factory=list)
    context: str = ""   # why the whole clause asks for nothing (context.py); "" when it may ask

    @property
    def realises(self) -> bool:
        return any(v not in (FUNCTION, FRAMING, SELF_INTRO, HEADING, PURPOSE, ACTOR, NEGATED, EXAMPLE, OPEN_LIST, *bg.KINDS)
                   for v in self.words.values())


def account_text(text: str, spec: AppSpec, sw: SpecWords | None = None) -> ClauseWords:
    """The accounting of one clause against the finished spec."""
    sw = sw or spec_words(spec)
    toks = tokens(text)
    labels, whole = _labels(text, toks, sw)
    out = ClauseWords()
    run: list[str] = []
    for tok, label in zip(toks, labels):
        if label is None:
            run.append(tok)
            continue
        out.words.setdefault(tok.lower(), label)
        if run:
            out.unaccounted.append(" ".join(run))
            run = []
    if run:
        out.unaccounted.append(" ".join(run))
    out.unaccounted = list(dict.fromkeys(out.unaccounted))
    out.context = whole if whole and not out.unaccounted else ""
    return out


def clause_labels(text: str, spec: AppSpec, sw: SpecWords) -> list[str | None]:
    """What realises each word of `tokens(text)` (None: nothing)."""
    return _labels(text, tokens(text), sw)[0]


def _labels(text: str, toks: list[str], sw: SpecWords) -> tuple[list[str | None], str]:
    whole = ""
    if is_vietnamese(text):
        labels = _vietnamese(toks, sw)
    else:
        parts, whole = bg.background(text, sw)
        labels = _english(toks, sw, parts, token_gaps(text))
        for k in example_indices(text):
            labels[k] = labels[k] or EXAMPLE   # "(ex. hours of sleep)": an example asks for nothing
    for k in range(min(_inline_label(text), len(labels))):
        labels[k] = labels[k] or HEADING
    return labels, whole or ""


_INLINE_LABEL = re.compile(r"^\s*([^:]{1,40}):\s*\S")


def _inline_label(text: str) -> int:
    """ "Feeding Tracking: Add fish by entering a name": how many words a bullet's label before
    the colon has (at most three; 0 when there is none) — a heading over the sentence."""
    m = _INLINE_LABEL.match(text)
    n = len(tokens(m.group(1))) if m else 0
    return n if n <= 3 else 0


def _english(toks: list[str], sw: SpecWords, background: list[str | None], gaps: list[str]) -> list[str | None]:
    labels: list[str | None] = []
    story = story_parts(toks)
    named = app_name_words(toks, sw)
    seen_entities: list[str] = []
    about = clause_records(toks, sw)
    for i, tok in enumerate(toks):
        low = tok.lower().replace("’", "'")
        label = _english_word(low, sw, toks[i - 1].lower() if i else "", about, owner_of(toks, i, sw))
        if label == FRAMING and low == "log" and i + 1 < len(toks) and toks[i + 1].lower() in closed("log particles"):
            label = None   # "log in" without accounts is no framing
        if label is None and low == "type" and "crud" in sw.present and (
                i + 1 < len(toks) and toks[i + 1].lower() in closed("framing followers")):
            label = sw.present["crud"]   # "Type and save notes": typing is entering (not "type of …")
        if label is None and any(ch.isdigit() for ch in low) and {"e.g", "eg", "example"} & {
                t.lower() for t in toks[max(0, i - 2):i]}:
            label = EXAMPLE   # "a price (e.g. 9.99)": an example value asks for nothing
        if label is None and stem(low) == "session" and "auth" in sw.present and i + 1 < len(toks) \
                and stem(toks[i + 1].lower()) in element_words().get("session", ()):
            label = sw.present["auth"]   # "session management": the login's sessions, no record
        if low == "rest" and (i + 1 >= len(toks) or toks[i + 1].lower() not in ("api", "apis")):
            label = None   # "rest time" is no REST API
        if label is None and _CAMEL.fullmatch(tok):   # "totalPrice": the field total_price
            parts = [_english_word(p.lower(), sw, "", about) for p in _CAMEL_CUT.split(tok)]
            label = next((p for p in parts if p not in (FUNCTION, FRAMING)), None) if all(parts) else None
        if label == FRAMING and (low in _PLURAL_RECORDS or stem(low) in _PLURAL_RECORDS_STEMS and i
                                 and (labels[-1] or "").startswith(("entity", "field"))):
            label = None   # "job applications", "its own job application": a record, not the app (trial i O2)
        if label is None and low in ("project", "application") and i <= 1 and (
                not i or toks[0].lower() in closed("app determiners")):
            label = FRAMING   # "The project has a login": the app being asked for
        if label is None and stem(low) in word_list("vague_en.txt") and i and toks[i - 1].lower() in closed("vague quantifiers"):
            label = FRAMING   # "any other appropriate details": a qualifier that names nothing
        if label is None and low in ("individual", "single") and i + 1 < len(toks) and sw.entity_of.get(stem(toks[i + 1].lower())):
            label = FUNCTION   # "track individual products", "view a single event": each one
        if label is None and stem(low) in word_list("record_views_en.txt") and i and labels and (labels[-1] or "").startswith("entity"):
            label = labels[-1]   # "Student profiles include names, ...": the record itself, shown
        if label is None and low in closed("register forms") and "crud" in sw.present \
                and _object_entity(toks, i, sw):
            label = sw.present["crud"]   # "Register a pet": recording a record, not signing up
        if low in ("registration", "registrations") and label == sw.present.get("auth") and i and labels \
                and (labels[-1] is None or labels[-1].startswith("entity")):
            label = sw.present.get("crud") if labels[-1] else None   # "an appointment registration": no sign-up
        if label is None and spared_at([t.lower() for t in toks], i):
            label = NEGATED   # "without having to search": what the user need not do asks for nothing
        if label is None and _self_intro(toks, i):
            label = SELF_INTRO
        if label is None and i in story and not (story[i] == PURPOSE and _asks_in_purpose(low)):
            label = story[i]
        if i in named and (label is None or stem(low) in keyed_words("app_names_en.txt")["kinds"]
                           and not label.startswith(("entity", "field"))):
            label = "the app's title"   # a kind word inside the phrase naming the app names the app
        if low == "lists" and i and sw.entity_of.get(stem(toks[i - 1].lower())):
            label = None   # "their expense lists": lists of records are records of their own
        if background[i] or story.get(i) == NEGATED:
            label = _background_label(low, sw, background[i] or NEGATED, label)
        ent = sw.entity_of.get(stem(low))
        if ent and label and label.startswith("entity"):
            others = [other for other in seen_entities if other != ent]
            if ent in sw.same_as:
                label = None   # "car" beside an unlinked vehicle record: maybe not the record meant (D6)
            elif any(not sw.linked(ent, other) for other in others) and after_link(toks, i) \
                    and not _own_field_next(toks, i, ent, seen_entities, sw):
                label = None   # "sessions ... for a book" without a link between them
            elif others and not any(sw.linked(ent, other) for other in others) and possessed(toks, i):
                label = None   # "animals and their owners" without a link between them
            elif ent not in seen_entities:
                seen_entities.append(ent)
        labels.append(label)
    framing_by_position(toks, gaps, labels, sw, named)
    required_asks([t.lower() for t in toks], labels, sw)
    list_items(toks, gaps, labels, sw)
    per_record_scope(toks, gaps, labels, sw)
    everyone_asks(toks, labels, sw)
    role_rights(toks, labels, sw)
    identity_asks(toks, gaps, labels, sw)
    relation_asks(toks, gaps, labels, sw)
    open_list_marks(toks, labels)
    for ask in (count_asks, average_asks, grouping_asks, status_asks, per_day_asks, rule_asks, comparison_asks,
                qualifier_asks):   # words one kind of element realises (a rule: rule_asks)
        ask(toks, labels, sw)
    problem_framing(toks, labels, FRAMING)   # "… have a difficult time …" (introduced.py)
    record_sets(toks, gaps, labels, sw)   # "from my collection", "Create, Read, …", "currently available"
    reject_invented(toks, labels, sw.invented)
    return labels


def _asks_in_purpose(low: str) -> bool:
    """ "... so that I may share my event with other users in a public space": sharing with others
    (access:shared of elements_en.txt), a record's state ("so the team sees completed tasks":
    purpose_states, trial D8) or a word that always asks (asks_en.txt) asks for something even in a
    story's purpose; it is realised only by the spec, never by being the purpose."""
    s = stem(low)
    return s in word_list("asks_en.txt") or any(
        s in element_words().get(key, ()) and _listed(low, s, "elements_en.txt") for key in ("access:shared", "purpose_states"))


def _background_label(low: str, sw: SpecWords, kind: str, label: str | None) -> str | None:
    """A word of a part that asks for nothing (context.py) is that part's; in a negated part, a login
    or page word is realised only by the spec lacking it ("No clientside required" and no HTML
    pages) and unaccounted when the spec has it: the request excluded what was built."""
    if kind in (bg.OUT_OF_SCOPE, NEGATED):
        scope = bg.scope_element(low, sw)
        if scope is not None:
            return scope or None
        return label or kind if kind == NEGATED else kind
    return kind


def _self_intro(toks: list[str], i: int) -> bool:
    """ "I'm a teacher", "I am a nurse", "we are a small gym": who is asking, not what."""
    before = " ".join(t.lower().replace("’", "'") for t in toks[max(0, i - 3):i])
    return before.endswith(("i'm a", "i'm an", "i am a", "i am an", "we are a", "we are an", "im a"))


def _object_entity(toks: list[str], i: int, sw: SpecWords) -> str | None:
    """The spec's record type a verb at i takes as its object ("register a pet", "register my pets")."""
    k = i + 1
    while k < len(toks) and toks[k].lower() in _SKIP:
        k += 1
    return sw.entity_of.get(stem(toks[k].lower())) if k < len(toks) else None


def _own_field_next(toks: list[str], i: int, ent: str, seen: list[str], sw: SpecWords) -> bool:
    """ "log an animal with animal species": the record named last, named again before a field of its own."""
    nxt = stem(toks[i + 1].lower()) if i + 1 < len(toks) else ""
    return bool(seen) and seen[-1] == ent and any(owner == ent for _l, owner, _n in sw.owned.get(nxt, []))


def _english_word(low: str, sw: SpecWords, before: str, about: frozenset[str] = frozenset(),
                  owner: str | None = None) -> str | None:
    """What realises one word; a record element only of the records the clause is about (`about`,
    or `owner` when the words around it name the record: SpecWords.label_for)."""
    if any(ch.isdigit() for ch in low):
        return sw.numbers.get(low)
    s = stem(low)
    if s in sw.page_words and s in _PAGE_STEMS:
        if sw.by_stem.get(s, "").startswith("field "):
            return sw.by_stem[s]   # "pages read" of a reading: a column with the word, not the HTML pages
        return None if before in _PAGE_COUNT or any(ch.isdigit() for ch in before) else "pages"
    own = sw.label_for(s, about, owner, before)
    if own:
        return own
    if s in sw.keyed and _listed(low, s, "elements_en.txt"):
        return sw.keyed[s]
    if low in word_list("function_en.txt") or same_form(low, listed_forms("function_en.txt").get(s, frozenset())):
        return FUNCTION
    if s in word_list("framing_en.txt") and _listed(low, s, "framing_en.txt"):
        return FRAMING
    if "-" in low or "'" in low:
        parts = [p for p in low.replace("'", "-").split("-") if p]
        got = [_english_word(p, sw, before, about) for p in parts]
        if got and all(got):
            return next((g for g in got if g not in (FUNCTION, FRAMING)), got[0])
    return None


def _listed(low: str, s: str, name: str) -> bool:
    """`low` is a word of the list, not a content word sharing its crude stem ("theme" is not "them")."""
    return same_listed_word(low, listed_forms(name).get(s, frozenset()))


def _vietnamese(toks: list[str], sw: SpecWords) -> list[str | None]:
    """Longest match first: a spec name written in Vietnamese, a phrase of the dictionary whose
    English words are all accounted, a function syllable, an English word."""
    table, longest = vi_phrases()
    syll = [vi_norm(t) for t in toks]
    labels: list[str | None] = [None] * len(toks)
    prev_entity: str | None = None
    i = 0
    while i < len(toks):
        step, label = 1, None
        for n in range(min(max(longest, 4), len(toks) - i), 0, -1):
            key = tuple(syll[i:i + n])
            if key in sw.vi_names:
                step, label = n, sw.vi_names[key]
                break
            if key in table:
                english = table[key].lower().split()
                got = [_english_word(w, sw, "a") for w in english]
                if all(got):
                    step, label = n, next((g for g in got if g not in (FUNCTION, FRAMING)), FUNCTION)
                    break
        if label is None:
            if syll[i] in word_list("function_vi.txt"):
                label = FUNCTION
            elif toks[i].isascii():
                label = _english_word(toks[i].lower(), sw, toks[i - 1].lower() if i else "")
        ent = _vi_entity(label, sw)
        if ent and prev_entity and not sw.linked(ent, prev_entity):
            label = None   # "danh mục công việc" (categories of tasks) without a link between them
        prev_entity = ent if label else None
        for k in range(i, i + step):
            labels[k] = label
        i += step
    return labels


def _vi_entity(label: str | None, sw: SpecWords) -> str | None:
    """The entity ident a Vietnamese span's label names ("entity book" -> "book")."""
    if not label or not label.startswith("entity "):
        return None
    name = label[len("entity "):]
    return next((ident for s, ident in sw.entity_of.items() if sw.by_stem.get(s) == label), name)


def is_heading(text: str) -> bool:
    """ "Features:", "MVP", "Model": a label over the clauses below it, not an ask — unless it
    holds a word that always asks ("Weekly summary", asks_en.txt)."""
    words = tokens(text)
    if any(stem(w) in word_list("asks_en.txt") for w in words):
        return False
    return text.rstrip().endswith(":") or 0 < len(words) <= 2


def account_spec(spec: AppSpec, invented: dict[str, str] | None = None) -> dict[str, ClauseWords]:
    """clause id -> its accounting, for every clause of the spec. A clause the spec calls
    context that is a heading accounts its words as the heading's. `invented`: the stems of records
    no word of the request introduces (introduced.py), realised by nothing."""
    sw = spec_words(spec)
    sw.invented = invented or {}
    out = {}
    for c in spec.clauses:
        acc = account_text(c.text, spec, sw)
        if acc.unaccounted and c.status == "context" and is_heading(c.text):
            acc = ClauseWords({w.lower(): acc.words.get(w.lower(), HEADING) for w in tokens(c.text)}, [])
        out[c.id] = acc
    return out
