"""Bullet lists a request puts under a heading that negates them: what the app must not have.

"It must NOT use:\\n- JavaScript\\n- Authentication. Assume that the user already has secure access"
(a public gym-app brief) forbids each item, although no item says "not" itself. The offline parser
read "Authentication." as an ask and built a login the request ruled out. A heading line ending in
":" with a negation (not, no, never, without, don't, mustn't, …) or naming what is out of scope
("Out of scope:", "Non-goals:") opens such a list; its bullet lines ("-", "*", "•", "1.") are the
items, up to the first line that is not one. `negated_clauses` gives the clause indices of those
items, so a feature word in them (login, authentication) is not asked for.
"""

from __future__ import annotations

import re

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok
from harness.offline.spec.token_tests import TokenTest
from harness.offline.spec.wordsets import word_set

_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_NEGATION = re.compile(r"\b(?:not|no|never|without|don'?t|doesn'?t|mustn'?t|shouldn'?t|cannot|can'?t|won'?t"
                       r"|avoid|exclude|excluding)\b", re.I)
_OUT_OF_SCOPE = re.compile(r"^(?:out\s+of\s+scope|not\s+in\s+scope|non[-\s]?goals?|exclusions?|excluded)\s*:$", re.I)


def negated_items(text: str) -> list[str]:
    """The bullet items under each negating heading of `text`, without their bullet marks."""
    items: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        bullet = _BULLET.match(line)
        if stripped.endswith(":") and not bullet:
            inside = bool(_NEGATION.search(stripped) or _OUT_OF_SCOPE.match(stripped))
            continue
        if bullet and inside:
            items.append(_BULLET.sub("", stripped))
        else:
            inside = False
    return items


def negated_clauses(text: str, clauses: list[str]) -> set[int]:
    """Indices of `clauses` that are (sentences of) a negated list's items."""
    items = [" ".join(item.split()) for item in negated_items(text)]
    if not items:
        return set()
    return {k for k, clause in enumerate(clauses)
            if (c := " ".join(clause.split())) and any(c in item for item in items)}


def mark_negated_logins(request: str, clauses: list[str], toks: list[Tok]) -> None:
    """A login word among a negated list's items asks for no login: context (users who only act
    stay as they are: "- users browse without signing in" names users)."""
    negated = negated_clauses(request, clauses)
    asks = TokenTest("auth_context", toks, {})
    for t in toks:
        if t.clause in negated and not t.used and t.w in lx.AUTH and (t.w not in word_set("feature_words.user_words") or t in asks):
            t.used, t.role = True, "context"
