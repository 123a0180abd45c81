"""A record type read from the head of a compound the rules do not understand: "stock levels" in
"keep track of stock levels across locations" made a `level` CRUD nobody asked for, while "stock"
stayed unexplained.

An entity is dropped when every mention of it stands right after a word no rule explained (or a time
word of `[compound_heads] time_modifiers`: "a specific time window"), in a
clause that is not built, and nothing else hangs on it (no fields, no children, no references).
Its words become unexplained too: the clause's reason names the whole compound. A request left
with no record type at all keeps them (its error would hide what was asked).
"""

from __future__ import annotations

from harness.offline.spec.pass_helpers import forget_records
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

# "a specific time window", "a date range": a span of time, never a record of its own (trial I2)
_TIME_MODIFIERS = word_set("compound_heads.time_modifiers")


def _unexplained_head(toks: list[Tok], i: int, p) -> bool:
    t, acc = toks[i], p.accounts[toks[i].clause]
    if acc.status != "not_built" or i == 0 or toks[i - 1].clause != t.clause:
        return False
    before = toks[i - 1]
    return not before.used and ((before.orig or before.w).lower() in {u.lower() for u in acc.unknown}
                                or before.w in _TIME_MODIFIERS)


def drop_compound_heads(toks: list[Tok], p) -> None:
    mentions: dict[str, list[int]] = {}
    for i, t in enumerate(toks):
        if t.role.startswith("entity:"):
            mentions.setdefault(t.role[7:], []).append(i)
    hung = set(p.parents.values()) | set(p.parents) | {e for e, items in p.fields.items() if items}
    dropped = [e for e in p.entities if e not in hung and mentions.get(e)
               and all(_unexplained_head(toks, i, p) for i in mentions[e])]
    if not dropped or len(dropped) == len(p.entities):
        return
    forget_records(p, dropped)
    for name in dropped:
        for i in mentions[name]:
            toks[i].used, toks[i].role = False, ""
            acc = p.accounts[toks[i].clause]
            word = toks[i].orig or toks[i].w
            if word.lower() not in {u.lower() for u in acc.unknown}:
                acc.unknown.append(word)
