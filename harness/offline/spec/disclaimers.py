"""What the app says it does not do: "It does not provide automatic watering or push
notifications", "... and does not automate care". App-store descriptions state their limits;
such a clause asks the app for nothing, so its words are context, not unbuilt asks.

Only a statement about the app itself (it / this app / the application / the tool) with a verb
of having or offering ("provide", "include", "automate", "send", ...) is a disclaimer. A rule
the app must enforce ("the app does not allow deleting paid invoices", "users cannot ...") is
an ask and stays with the other rules.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok

_SUBJECTS = frozenset({"it", "app", "application", "tool", "utility", "system", "software", "service"})
_NEGATIONS = frozenset({"does", "do", "will", "doesn't", "don't", "won't"})
_OFFERS = frozenset({"provide", "include", "offer", "automate", "have", "use", "require", "collect", "send",
                     "contain", "need", "perform", "give", "track", "store", "share", "sync", "connect"})
_REACH = 12   # how far back (tokens, same clause) the app is named as the subject


def _subject_before(toks: list[Tok], i: int) -> bool:
    for j in range(i - 1, max(-1, i - _REACH), -1):
        if toks[j].clause != toks[i].clause or toks[j].w in (".", ";"):
            return False
        if toks[j].w in _SUBJECTS and lx.singularize(toks[j].w) == toks[j].w:
            return True
    return False


def mark_disclaimers(toks: list[Tok]) -> None:
    """Mark "does not <offer-verb> ..." about the app, to the end of its clause, as context."""
    for i, t in enumerate(toks):
        neg = t.w in ("doesn't", "don't", "won't") or t.w in _NEGATIONS and i + 1 < len(toks) and toks[i + 1].w == "not"
        if not neg:
            continue
        k = i + (1 if t.w in ("doesn't", "don't", "won't") else 2)
        if k >= len(toks) or toks[k].w not in _OFFERS or not _subject_before(toks, i):
            continue
        while k < len(toks) and toks[k].clause == t.clause and toks[k].w != ".":
            k += 1
        for x in toks[i:k]:
            if not x.used:
                x.used, x.role = True, "context"
