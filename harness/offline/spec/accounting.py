"""Per clause: what the passes recognised, and which content words no rule recognised.

A clause is covered only when something in it was positively recognised and no content word is
left over; a leftover word (or a stack the generator does not build) makes it not built; a
clause of framing words only (greetings, "Below are the epics") is context.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set
from harness.utils.request_text import example_value_words

# Words that never ask for anything by themselves.
_IGNORABLE = (lx.FUNCTION | lx.DETERMINERS | lx.FILLER | lx.MODALS | lx.REL_PRONOUNS | lx.ADJECTIVES
              | lx.META | lx.DOMAIN_AREAS | lx.QUANTIFIERS | rl.CONTEXT_WORDS | rl.UI_WORDS
              | lx.PAGE_WORDS | lx.API_WORDS | lx.APP_HEADS | lx.PEOPLE_SUBJECTS | rl.ACTOR_WORDS | rl.PARTICLES
              | rl.LOCAL_RUN_WORDS   # "a web app running on localhost": the generated app does
              | rl.STORAGE_WORDS   # the generated app stores its records (SQLite): "kept in a file" asks nothing more
              | lx.PRIMARY_KEY_WORDS   # every generated record has its integer id
              | word_set("accounting.ignorable_extra"))
_NEVER_IGNORED = word_set("accounting.never_ignored")
_ASKING_MODIFIERS = word_set("accounting.asking_modifiers")
_ACTIONS = rl.ENTITY_VERBS | word_set("accounting.action_extra")


@dataclass
class ClauseAccount:
    """What one clause asked for, as far as the rules understood it."""

    roles: list[str] = field(default_factory=list)      # positive roles, first-seen order
    unknown: list[str] = field(default_factory=list)    # the user's words no rule recognised
    stacks: list[str] = field(default_factory=list)     # stacks asked for that are not built
    actions: bool = False                               # a CRUD verb without its record type
    blocked: list[str] = field(default_factory=list)    # recognised, but the generator cannot build it

    @property
    def status(self) -> str:
        if self.unknown or self.stacks or self.blocked:
            return "not_built"
        return "mapped" if self.roles else "context"


def account_clauses(toks: list[Tok], clauses: list[str]) -> list[ClauseAccount]:
    """One ClauseAccount per clause (same order)."""
    out = [ClauseAccount() for _ in clauses]
    examples = example_tokens(toks)
    said = [example_value_words(text) for text in clauses]
    for i, t in enumerate(toks):
        acc = out[t.clause]
        if i in examples and not t.used and (t.orig or t.w).lower() in said[t.clause]:
            continue   # "(e.g., "Tiki Night")": the opener and quoted example values ask for nothing
        if t.role.startswith("stack:"):
            name = t.role.split(":", 1)[1]
            if name not in acc.stacks:
                acc.stacks.append(name)
        elif t.role == "unexplained":   # listed field words no rule read (patterns/field_lists.jsonl)
            word = t.orig or t.w
            if word.lower() not in (u.lower() for u in acc.unknown):
                acc.unknown.append(word)
        elif t.role.startswith("entity:") and t.w in _ASKING_MODIFIERS:   # "a random recipe", "favourite recipes"
            if (t.orig or t.w).lower() not in (u.lower() for u in acc.unknown):
                acc.unknown.append(t.orig or t.w)
        elif t.role and t.role != "context" and not t.role.endswith(":"):
            if t.role not in acc.roles:
                acc.roles.append(t.role)
        elif not t.used and (asks_something(t) or _unread_column(toks, i)):
            word = t.orig or t.w
            if word.lower() not in (u.lower() for u in acc.unknown):
                acc.unknown.append(word)
        if not t.used and (t.w in _ACTIONS or rl.verb_base(t.w) in _ACTIONS) and not _noun_use(toks, i):
            acc.actions = True
    for t in _lone_plurals(toks):   # a bullet "- sets" names a thing: it was context, dropped silently
        word = t.orig or t.w
        if word.lower() not in (u.lower() for u in out[t.clause].unknown):
            out[t.clause].unknown.append(word)
    return out


_LIST_INTROS = word_set("accounting.list_intros")
_EXAMPLE_OPENERS = word_set("accounting.example_openers")


def example_tokens(toks: list[Tok]) -> set[int]:
    """The tokens of a parenthesised example ("(e.g. 9.99)", "(ex. number of glasses)", "(for
    example ...)"), the opener included, up to its closing bracket in the same clause."""
    out: set[int] = set()
    for i, t in enumerate(toks):
        if t.w != "(" or i + 1 >= len(toks):
            continue
        first = toks[i + 1].w
        if first not in _EXAMPLE_OPENERS and not (first == "for" and i + 2 < len(toks) and toks[i + 2].w in _EXAMPLE_OPENERS):
            continue
        k = i + 1
        while k < len(toks) and toks[k].clause == t.clause and toks[k].w not in (")", "("):
            out.add(k)
            k += 1
    return out


def _unread_column(toks: list[Tok], i: int) -> bool:
    """ "service records with a date": a column word in a list after "with"/"has" that no rule
    read asks for that column (a word such as "date" is otherwise only background)."""
    if toks[i].w not in lx.FIELD_VOCAB:
        return False
    k = i - 1
    while k >= 0 and toks[k].clause == toks[i].clause and (toks[k].w in lx.DETERMINERS or toks[k].w in (",", "and")
                                                           or toks[k].w in lx.FIELD_VOCAB and not toks[k].used):
        k -= 1
    return k >= 0 and toks[k].clause == toks[i].clause and toks[k].w in _LIST_INTROS


def _noun_use(toks: list[Tok], i: int) -> bool:
    """ "an online store", "the list": a verb's word after an article or adjective names a thing."""
    before = toks[i - 1] if i > 0 and toks[i - 1].clause == toks[i].clause else None
    return before is not None and (before.w in lx.DETERMINERS or before.w in lx.ADJECTIVES)


def _lone_plurals(toks: list[Tok]) -> list[Tok]:
    """The unconsumed word of each one-word clause that is a plural noun read as a verb ("sets")."""
    words: dict[int, list[Tok]] = {}
    for t in toks:
        if t.w[:1].isalpha():
            words.setdefault(t.clause, []).append(t)
    return [ts[0] for ts in words.values() if len(ts) == 1 and not ts[0].used and ts[0].w.endswith("s")
            and lx.singularize(ts[0].w) != ts[0].w and rl.is_supported_verb(ts[0].w)]


def asks_something(t: Tok) -> bool:
    """Whether an unconsumed token is a word that asks for something (its clause is not built
    while no rule consumes it)."""
    w = t.w
    if w.startswith("@"):   # a URL or e-mail address
        return False
    if not w:   # a Vietnamese word the lexicon does not know
        return any(ch.isalpha() for ch in t.orig)
    if not w[0].isalpha():
        return any(ch.isalpha() for ch in w)   # "3d", "2fa"
    if w in _NEVER_IGNORED or lx.singularize(w) in _NEVER_IGNORED:
        return True
    if w in _IGNORABLE or lx.singularize(w) in _IGNORABLE or rl.is_supported_verb(w):
        return False
    return not (w.endswith("ly") and w not in lx.NOUN_LY)
