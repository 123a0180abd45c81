"""Feature asks said in other words than the registry's trigger words (features.py):
"filter by ... keywords" is search, "a dashboard overview of my expenses" is totals of their
money, "newest first" and "persist after a refresh" (reserved by rows of patterns/features.jsonl)
are the listing order and persistence of the one record type their clause names.
"""

from __future__ import annotations

from harness.offline.spec.fields import kind_for_name
from harness.offline.spec.pass_helpers import use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_KEYWORDS = word_set("feature_phrases.keywords")
_SEARCH_CONTEXT = word_set("feature_phrases.search_context")
_OVERVIEW = word_set("feature_phrases.overview")
_OVERVIEW_LINKS = word_set("feature_phrases.overview_links")
_NUMBER_KINDS = word_set("feature_phrases.number_kinds")

def _clause_mentions(toks: list[Tok], i: int, mentions: dict[int, str]) -> list[str]:
    return list(dict.fromkeys(name for j, name in sorted(mentions.items()) if toks[j].clause == toks[i].clause))


def find_keyword_search(toks: list[Tok], mentions: dict[int, str]) -> list[tuple[str, str | None, list[str], int]]:
    """search features for "filter expenses by date, category or keywords" (a keyword is a
    full-text query over the record's text fields)."""
    found = []
    for i, t in enumerate(toks):
        if t.used or t.w not in _KEYWORDS:
            continue
        before = {toks[j].w for j in range(i) if toks[j].clause == t.clause}
        named = _clause_mentions(toks, i, mentions) or _referred_back(toks, i, before, mentions)
        if not before & _SEARCH_CONTEXT or len(named) != 1:
            continue
        use(t, f"feature:search:{named[0]}")
        for j in range(i):   # "filter this list with keywords": the filter word is that search
            if toks[j].clause == t.clause and not toks[j].used and toks[j].w in _SEARCH_CONTEXT - {"by"}:
                use(toks[j], f"feature:search:{named[0]}")
        found.append(("search", named[0], [], t.clause))
    return found


_BACK_REFERENCES = word_set("feature_phrases.back_references")


def _referred_back(toks: list[Tok], i: int, before: set[str], mentions: dict[int, str]) -> list[str]:
    """ "... greeted by a list of job applications. The user could filter this list with keywords":
    the one record type named in the clause before, when this clause points back to it."""
    if not before & _BACK_REFERENCES or toks[i].clause == 0:
        return []
    prev = [name for j, name in sorted(mentions.items()) if toks[j].clause == toks[i].clause - 1]
    return list(dict.fromkeys(prev))


def find_overview_totals(toks: list[Tok], mentions: dict[int, str], p) -> list[tuple[str, str | None, list[str], int]]:
    """aggregate features for "a dashboard overview of expenses" when the expenses have a money
    or number field (the totals of those fields are the overview)."""
    found = []
    for i, t in enumerate(toks):
        if t.w not in _OVERVIEW or not any(toks[j].role == "dashboard" for j in range(len(toks))
                                           if toks[j].clause == t.clause):
            continue
        j = i + 1
        while word(toks, j) in _OVERVIEW_LINKS:
            j += 1
        name = mentions.get(j)
        if name is None or not any(kind_for_name(f.words)[0] in _NUMBER_KINDS for f in p.fields.get(name, [])):
            continue
        for k in range(i + 1, j):
            if not toks[k].used:
                use(toks[k], f"feature:aggregate:{name}")
        found.append(("aggregate", name, [], t.clause))
    return found


# Phrases the "feature phrases reserved" rows (patterns/features.jsonl) mark, waiting for their record type:
_PENDING = "newest:"            # "newest first", "most recent on top" (find_newest_first)
_PERSIST_PENDING = "persist:"   # "persist after a refresh", "stay after a restart" (find_persistence)


def _resolve(toks: list[Tok], mentions: dict[int, str], p, pending: str,
             kind: str) -> list[tuple[str, str | None, list[str], int]]:
    """Each reserved phrase gets the one record type of its clause (or of the clause before, pointed
    back to; or the request's only one) as feature `kind`; a phrase without one is left unexplained."""
    found = []
    for i, t in enumerate(toks):
        if t.role != pending or (i > 0 and toks[i - 1].role == pending and toks[i - 1].clause == t.clause):
            continue
        span = [j for j in range(i, len(toks)) if toks[j].clause == t.clause]
        span = span[:next((k for k, j in enumerate(span) if toks[j].role != pending), len(span))]
        before = {toks[j].w for j in range(i) if toks[j].clause == t.clause}
        named = _clause_mentions(toks, i, mentions) or _referred_back(toks, i, before, mentions) or list(
            dict.fromkeys(x.role[7:] for x in toks if x.clause == t.clause and x.role.startswith("entity:")))
        if not named and len(p.entities) == 1:
            named = list(p.entities)
        for j in span:
            toks[j].used, toks[j].role = (True, f"feature:{kind}:{named[0]}") if len(named) == 1 else (False, "")
        if len(named) == 1:
            found.append((kind, named[0], [], t.clause))
    return found


def find_newest_first(toks: list[Tok], mentions: dict[int, str], p) -> list[tuple[str, str | None, list[str], int]]:
    """newest_first for "see a list of all their expenses, newest first", "posts are shown with the
    most recent first": the record type is listed newest first."""
    return _resolve(toks, mentions, p, _PENDING, "newest_first")


def find_persistence(toks: list[Tok], mentions: dict[int, str], p) -> list[tuple[str, str | None, list[str], int]]:
    """persistence for "save all expenses so they persist after refresh and login", "notes stay
    after a restart": the record type is kept in the database, which a fresh start of the app reads."""
    return _resolve(toks, mentions, p, _PERSIST_PENDING, "persistence")
