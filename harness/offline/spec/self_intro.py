"""Who asks, and why, is context: "I'm a teacher", "as a manager", the benefit of a user story
("... so that I can review my spending") and its reason ("... if it was added by mistake")."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_CHOICE_VERBS = word_set("self_intro.choice_verbs")


def mark_self_intro(toks: list[Tok]) -> None:
    """ "I'm a teacher", "as a manager": who asks is context, not a record type; so is the
    benefit of a user story ("... so that I can review my spending")."""
    stories = {t.clause for k, t in enumerate(toks) if (t.w == "i" and _word(toks, k + 1) in ("want", "need"))
               or (t.w == "as" and _word(toks, k + 1) in ("a", "an"))}
    for i in range(len(toks)):
        why = toks[i].w in ("if", "because", "since", "before") or (toks[i].w == "in" and _word(toks, i + 1) == "case")
        if toks[i].w == "if" and _word(toks, i - 1) in _CHOICE_VERBS:   # "choose if I want to ...": whether
            why = False
        if why and toks[i].clause in stories:   # "... if it was added by mistake": the reason, not the ask
            k = i
            while k < len(toks) and toks[k].clause == toks[i].clause and toks[k].w not in (".", ","):
                if not toks[k].used:
                    _use(toks[k], "context")
                k += 1
        if toks[i].w == "so" and _word(toks, i + 1) == "that":
            k = i
            while k < len(toks) and toks[k].clause == toks[i].clause and toks[k].w != ".":
                if not toks[k].used:
                    _use(toks[k], "context")
                k += 1
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
