"""Who asks and why, not what is asked: a user story's role ("As a library manager, ..."), its
purpose ("..., so that I can review my month"), who does it (the subject before a modal) and what the
request says the app does not do. Index -> label; the labels realise nothing (account.py)."""

from __future__ import annotations

from harness.offline.accounting.lexicon import closed, stem, word_list
from harness.offline.accounting.role_rights import subject_spans

SELF_INTRO = "who is asking (self-introduction)"
PURPOSE = "why it is asked (purpose)"
ACTOR = "who uses it (actor)"
NEGATED = "what the app need not do (negated)"


def story_parts(toks: list[str]) -> dict[int, str]:
    """A user story's role ("As a library manager, ...") and purpose ("..., so that I can review
    my month"): who asks and why, not what is asked. Index -> label."""
    low = [t.lower() for t in toks]
    out: dict[int, str] = {}
    if low[:1] == ["as"] and len(low) > 2 and low[1] in closed("story articles"):
        k = 2
        while k < len(low) and low[k] not in closed("story role ends"):
            if stem(low[k]) not in word_list("asks_en.txt"):   # "As an admin": a role asks for its rights
                out[k] = SELF_INTRO
            k += 1
    _actors(low, out)
    _negated(low, out)
    for k in range(len(low) - 1):
        if (low[k], low[k + 1]) == ("so", "that") or k and (low[k], low[k + 1]) in (("so", "i"), ("in", "order")):
            # after the ask; a clause opening with "In order to …" or "So I …" goes on to ask
            # ("In order to provide …, the app will integrate with …", "So I decided to track my sales")
            out.update({j: PURPOSE for j in range(k, len(low))})
            break
    return out


_DETS = closed("rule determiners")


# "does not allow deleting paid invoices" is a rule the app must enforce, not a disclaimer.
_RULE_VERBS = closed("rule verbs")
_NEG_AUX = closed("negated auxiliaries")


def _negated(low: list[str], out: dict[int, str]) -> None:
    """What the request says the app does not do ("It does not provide push notifications",
    "No login", "Not needed: payments"): those words ask for nothing."""
    start = None
    if low[:1] in (["no"], ["not"], ["without"]):
        start = 1
    for k in range(len(low) - 1):
        if start is not None:
            break
        if low[k] in closed("contracted negations") and low[k + 1] not in _RULE_VERBS:
            start = k + 1
        elif low[k] in _NEG_AUX and low[k + 1] == "not" and k + 2 < len(low) and low[k + 2] not in _RULE_VERBS:
            start = k + 2
    if start is not None:
        out.update({j: NEGATED for j in range(start, len(low)) if j not in out})


def _actors(low: list[str], out: dict[int, str]) -> None:
    """Who does it: the subject before a modal at the clause start ("The gym can register
    members") or the object of "allow … to" ("allow the gym to create members"). A role word
    (asks_en.txt: admin, manager …) is never only an actor."""
    spans = [span for span, _start in subject_spans(low, _DETS)]
    for span in spans:
        if not any(stem(low[i]) in word_list("asks_en.txt") for i in span):
            out.update({i: ACTOR for i in span})
