"""Token helpers shared by the rule-based passes (rules.py, field_passes.py)."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set
from harness.utils.spared_actions import spared_at

# Words that end a field list: function words, verbs, feature and UI words (a username or password
# listed is a field of the record: lexicon.login_values).
STOPS = (lx.FUNCTION | lx.VERBS | lx.ADJECTIVES | (lx.AUTH - word_set("lexicon.login_values")) | lx.DASHBOARD
         | lx.COMPLETE | lx.APP_HEADS | lx.PAGE_WORDS | lx.API_WORDS)


def word(toks: list[Tok], i: int) -> str:
    """The word at i, or "" outside the token list."""
    return toks[i].w if 0 <= i < len(toks) else ""


def past_determiners(toks: list[Tok], j: int) -> int:
    """The first index from j whose word is no determiner ("the", "their", "all", ...)."""
    while j < len(toks) and toks[j].w in lx.DETERMINERS | {"all"}:
        j += 1
    return j


def use(t: Tok, role: str) -> None:
    """Mark a token recognised, with the role that recognised it."""
    t.used, t.role = True, role


def nearest(toks: list[Tok], i: int, mentions: dict[int, str], reach: int = 12, ahead_first: bool = False) -> str | None:
    """The entity mentioned closest to i within `reach` tokens of the same clause (of two as near, the
    one before, or with `ahead_first` the one after)."""
    for d in range(reach + 1):
        for j in ((i + d, i - d) if ahead_first else (i - d, i + d)):
            if j in mentions and toks[j].clause == toks[i].clause:
                return mentions[j]
    return None


def main_record(mentions: dict[int, str]) -> str | None:
    """The record the request names most often (the earliest of a tie)."""
    counts: dict[str, int] = {}
    for k in sorted(mentions):
        counts[mentions[k]] = counts.get(mentions[k], 0) + 1
    return max(counts, key=counts.get) if counts else None


def spared(toks: list[Tok], i: int) -> bool:
    """Word i is what the request says the user need not do ("without having to search")."""
    return spared_at([t.w if t.clause == toks[i].clause else "" for t in toks[max(0, i - 4):i + 1]],
                     min(i, 4))


def forget_records(p, names, mentions: dict[int, str] | None = None) -> None:
    """Take the records `names` out of the parse with all that hangs on them (and out of `mentions`);
    what their words become is the caller's."""
    gone = set(names)
    p.entities = [e for e in p.entities if e not in gone]
    for table in (p.plurals, p.fields, p.workflows, p.access, p.tools, p.computed, p.stamps,
                  p.entity_rules, p.field_clauses, p.relation_clauses):
        for name in gone:
            table.pop(name, None)
    p.parents = {c: par for c, par in p.parents.items() if c not in gone and par not in gone}
    p.status = [e for e in p.status if e not in gone]
    p.features = [f for f in p.features if f[1] not in gone]
    p.links = [link for link in p.links if not set(link) & gone]
    p.asked_in = {key: v for key, v in p.asked_in.items() if key[0] not in gone}
    p.cascade = {c for c in p.cascade if c not in gone}
    for i in [i for i, n in (mentions or {}).items() if n in gone]:
        del mentions[i]
