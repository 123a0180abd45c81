"""Phrases whose words are each harmless alone but together ask for something the generated CRUD
app does not have; each is reported once, as the phrase, so its clause stays not built (the
accounting reads the "unexplained" role: accounting.py). The pass here needs code (see passes.jsonl);
the others of the kind are rows of patterns/features.jsonl ("report": "collection moves", ...)."""

from __future__ import annotations

from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_NEG_MODALS = word_set("unbuilt_phrases.neg_modals")
_NOT_AFTER = word_set("unbuilt_phrases.not_after")
_OTHERS = word_set("unbuilt_phrases.others")


def _report(head: Tok, rest: list[Tok], phrase: str) -> None:
    """`head` carries the phrase as the one unexplained word; `rest` asks nothing more."""
    for t in rest:
        t.used, t.role = True, "context"
    head.orig = phrase
    head.used, head.role = True, "unexplained"


def _text(t: Tok) -> str:
    return t.orig or t.w


def _negation_at(toks: list[Tok], i: int) -> int:
    """How many tokens the negated modal at i spans ("can't": 1, "can not": 2), 0 when none."""
    if toks[i].w in _NEG_MODALS:
        return 1
    if toks[i].w in _NOT_AFTER and i + 1 < len(toks) and toks[i + 1].w == "not" and toks[i + 1].clause == toks[i].clause:
        return 2
    return 0


def mark_restrictions(toks: list[Tok]) -> None:
    """ "A user can't add more than a single review to a book", "A review cannot be deleted": a rule
    the app must enforce. Its words are each read as CRUD ("add", "review", "book") and the clause
    was claimed built although nothing enforces the rule. A negated modal before a verb acting on
    records (create, add, edit, delete, book, ...; "be deleted") and that verb are
    reported as the phrase, unless a feature the generator builds consumed the clause ("cannot be
    booked twice": no_double_booking) or another pass read the negation (a disclaimer, "no login").
    Under a login, a restriction on other people's records ("can't edit other users' tasks") is the
    isolation the app builds: it is the login's requirement."""
    for i in range(len(toks) - 1):
        span = _negation_at(toks, i)
        if not span or toks[i].used and toks[i].role:
            continue
        clause = toks[i].clause
        if any(t.clause == clause and t.role.startswith("feature:") for t in toks):
            continue
        words = [k for k in range(i + span, min(i + span + 3, len(toks)))
                 if toks[k].clause == clause and toks[k].w[:1].isalpha()]
        if not words:
            continue
        end = words[1] if toks[words[0]].w == "be" and len(words) > 1 else words[0]   # "cannot be deleted"
        if not rl.is_entity_verb(toks[end].w):   # "it shouldn't run in the cloud": no rule on the records
            continue
        others = [t for t in toks if t.clause == clause and t.w in _OTHERS]
        if others and any(t.role == "auth" for t in toks):
            # "users can't edit other users' tasks": the login's isolation, which the app builds
            for t in (*toks[i:end + 1], *others):
                t.used, t.role = True, "auth"
            continue
        _report(toks[i], toks[i + 1:end + 1], " ".join(_text(t) for t in toks[i:end + 1]))
