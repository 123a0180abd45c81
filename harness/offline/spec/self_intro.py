"""Who asks is context: "I'm a teacher", "as a manager", "as a book lender". (The reason and the
benefit of a user story, "... if it was added by mistake", "... so that I can review my
spending", are rows of patterns/framing.jsonl.)"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok


def mark_self_intro(toks: list[Tok]) -> None:
    """ "I'm a teacher", "as a manager": who asks is context, not a record type."""
    for i in range(len(toks)):
        for a, b in rl.SELF_INTRO:
            if toks[i].w == a and (b is None or _word(toks, i + 1) == b):
                j = i + (1 if b is None else 2)
                while j < len(toks) and toks[j].w in lx.DETERMINERS | lx.ADJECTIVES:
                    j += 1
                k = j
                while k < len(toks) and k - j < 3 and toks[k].w[:1].isalpha() and toks[k].w not in lx.FUNCTION \
                        and (not rl.is_supported_verb(toks[k].w) or _compound_actor(toks, k)):
                    _use(toks[k], "context")
                    k += 1


def _compound_actor(toks: list[Tok], k: int) -> bool:
    """ "as a book lender": a noun that is also a verb, modifying the actor noun after it."""
    nxt = toks[k + 1] if k + 1 < len(toks) else None
    return (toks[k].w in lx.VERB_NOUNS and nxt is not None and nxt.clause == toks[k].clause and nxt.w[:1].isalpha()
            and nxt.w not in lx.FUNCTION and not rl.is_supported_verb(nxt.w))
