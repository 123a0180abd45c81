"""Phrases whose words are each harmless alone but together ask for something the generated CRUD
app does not have; each is reported once, as the phrase, so its clause stays not built (the
accounting reads the "unexplained" role: accounting.py). The passes here need code (see rules.PASSES);
the others of the kind are rows of patterns/features.jsonl ("report")."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_NEG_MODALS = word_set("unbuilt_phrases.neg_modals")
_NOT_AFTER = word_set("unbuilt_phrases.not_after")
_OTHERS = word_set("unbuilt_phrases.others")
_MOVES = word_set("unbuilt_phrases.moves")
_MOVE_TO = word_set("unbuilt_phrases.move_to")


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


def _past(toks: list[Tok], j: int, words: frozenset[str], clause: int) -> int:
    """The first index from j whose token is not one of `words` (or leaves the clause)."""
    while j < len(toks) and toks[j].clause == clause and toks[j].w in words:
        j += 1
    return j


def _entity_at(toks: list[Tok], j: int, clause: int) -> str | None:
    ok = j < len(toks) and toks[j].clause == clause and toks[j].role.startswith("entity:")
    return toks[j].role[7:] if ok else None


_MOVE_LINKS = _MOVES | {"/", "or", "and"}
_ARTICLES = lx.DETERMINERS | lx.QUANTIFIERS


def mark_collection_moves(toks: list[Tok], parents: dict[str, str]) -> None:
    """ "add/remove a book from a shelf": a record put into and taken out of another record is a
    collection the generated app does not keep unless the first belongs to the second (a task in
    its project: the reference the app builds). The move is reported as the phrase."""
    for i, t in enumerate(toks):
        if t.w not in _MOVES:
            continue
        j = _past(toks, _past(toks, i + 1, _MOVE_LINKS, t.clause), _ARTICLES, t.clause)
        child = _entity_at(toks, j, t.clause)
        k = j + 1
        if child is None or k >= len(toks) or toks[k].w not in _MOVE_TO or toks[k].clause != t.clause:
            continue
        m = _past(toks, k + 1, _ARTICLES, t.clause)
        holder = _entity_at(toks, m, t.clause)
        if holder is None or child == holder or parents.get(child) == holder:
            continue
        _report(toks[k], toks[i:k], " ".join(_text(x) for x in toks[i:m + 1]))
