"""Background: clause parts that ask for nothing, and whole clauses set aside as `context`.

It reads the clause text, the finished spec's words and the word lists only (never the parser's
passes or its clause statuses). A clause is split into parts at , ; : ( ) " but " and dashes;
each part is background when it has one of these shapes (background_en.txt holds the words):

- a description of the app or its users: "This is …", "it is an admin/management app for the
  shop workers", "Users of this system are students" — a subject, a copula and a predicate of
  function, framing, people, app-kind and place words only;
- a scope negation: "This is not an app which the customer will see", "No clientside required",
  "you don't have to implement sessions and roles" — unless a rule word follows the negation
  ("not possible", "not more than 500", "no customer can …"): that is a rule the app enforces;
- an assumption the builder may make: "you can assume that the app will be used by one person";
- a reason: "For the sake of simplicity";
- a free choice left to the builder: "The shop can sell anything you like".

A part with a modal or an imperative outside a negation, an always-asking word (asks_en.txt), a
digit, or a word the finished spec realises is never background, so a sentence that looks like
background but asks ("The shopkeeper must be able to see stock levels") stays counted.
"""

from __future__ import annotations

import re

from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, keyed_words, stem, tokens, word_list

DESCRIBES = "context: describes the app or who uses it"
OUT_OF_SCOPE = "context: says what the app need not do"
ASSUMED = "context: an assumption the builder may make"
REASON = "context: why, not what"
FREE_CHOICE = "context: a choice left to the builder"
KINDS = (DESCRIBES, OUT_OF_SCOPE, ASSUMED, REASON, FREE_CHOICE)

_PARTS = re.compile(r"[,;:()\[\]]|\s[-–—]+\s|(?<=\s)(?=but\s)", re.I)
_LEADING = closed("leading conjunctions")
_MODALS = closed("context modals")
_SUBJECT_REACH = 5


def _words(key: str) -> frozenset[str]:
    return keyed_words("background_en.txt")[key]


def parts(text: str) -> list[list[str]]:
    """The clause's parts, each as its tokens (their concatenation is `tokens(text)`)."""
    return [tokens(p) for p in _PARTS.split(text) if tokens(p)]


def _quiet(s: str) -> bool:
    """A word that asks for nothing by itself (function or framing word)."""
    return s in word_list("function_en.txt") or s in word_list("framing_en.txt")


def _asks(low: list[str], sw: SpecWords) -> bool:
    """An always-asking word, a number, or a word the spec realises as a record, field or value."""
    for k, w in enumerate(low):
        s = stem(w)
        if any(ch.isdigit() for ch in w):
            return True
        if s in word_list("asks_en.txt") and not _kind_modifier(low, k):
            return True
        if sw.by_stem.get(s, "").split(" ")[0] in ("entity", "field", "enum", "workflow", "computed"):
            return True
    return False


def _kind_modifier(low: list[str], k: int) -> bool:
    """ "an admin/management app": a role word naming the kind of app, right before an app head."""
    heads = keyed_words("app_names_en.txt")["heads"]
    nxt = low[k + 1:k + 3]
    return bool(nxt) and (stem(nxt[0]) in heads or stem(nxt[0]) in _words("app_kinds")
                          and len(nxt) > 1 and stem(nxt[1]) in heads)


def _negated_scope(rest: list[str]) -> bool:
    """What follows a negation asks for nothing unless a rule word makes it a rule."""
    return not any(stem(w) in _words("rule_words") or w in _words("rule_words") or any(ch.isdigit() for ch in w)
                   for w in rest)


def _plain_predicate(low: list[str], restrictive_ok: bool = False) -> bool:
    """Every word is function, framing, people, app kind, place or app head; no modal except "will be"."""
    names = keyed_words("app_names_en.txt")
    for k, w in enumerate(low):
        s = stem(w)
        if w in _MODALS or w in ("will", "would") and low[k + 1:k + 2] != ["be"] or w in _words("restrictive") and not restrictive_ok:
            return False
        if not (_quiet(s) or s in _words("people") or s in _words("app_kinds") or s in names["kinds"]
                or s in names["heads"] or s in _words("subjects")
                or s in word_list("asks_en.txt") and _kind_modifier(low, k)):
            return False
    return True


def _description(low: list[str]) -> str | None:
    """ "<subject> is [not] <predicate>": DESCRIBES, OUT_OF_SCOPE or None."""
    if low and low[0].endswith("'s") and low[0][:-2] in _words("subjects"):   # "It's an internal tool …"
        low = [low[0][:-2], "is", *low[1:]]
    cop = next((k for k, w in enumerate(low[:_SUBJECT_REACH + 1]) if w in _words("copulas")), None)
    if not cop:
        return None
    subject = low[:cop]
    if not any(stem(w) in _words("subjects") or stem(w) in _words("people") for w in subject) or not all(
            _quiet(stem(w)) or stem(w) in _words("subjects") for w in subject):
        return None
    rest = low[cop + 1:]
    if rest[:1] == ["be"]:
        rest = rest[1:]
    if rest[:1] and rest[0] in _words("negations"):
        return OUT_OF_SCOPE if _negated_scope(rest[1:]) else None
    return DESCRIBES if rest and _plain_predicate(rest) else None


def _scope(low: list[str], sw: SpecWords | None = None) -> str | None:
    """ "No clientside required", "you don't have to implement sessions": OUT_OF_SCOPE or None."""
    if low[:1] and low[0] in closed("opening negations"):
        return OUT_OF_SCOPE if _negated_scope(low[1:]) else None
    if len(low) > 2 and low[-2] in ("not", "never") and stem(low[-1]) in _words("not_needed") \
            and low[-3] in _words("copulas") and _negated_scope(low[:-3]) and not (sw and _asks(low[:-3], sw)):
        return OUT_OF_SCOPE   # "The frontend is not required" ("Product names are not required" is a field rule)
    for k, w in enumerate(low[:4]):
        if w in closed("negated needs") or w in closed("need auxiliaries") and low[k + 1:k + 2] == ["not"]:
            rest = low[k + 1:] if "'" in w else low[k + 2:]
            if rest[:2] == ["have", "to"] or rest[:2] == ["need", "to"] or w == "needn't" or w == "need":
                who = low[:k]
                if all(_quiet(stem(x)) or stem(x) in _words("subjects") for x in who):
                    return OUT_OF_SCOPE if _negated_scope(rest) else None
    return None


def _assumption(low: list[str]) -> bool:
    """ "you can assume that the app will be used by the librarian only": who uses the app, in plain
    words ("assume each task has a due date" names data, and is no assumption here)."""
    k = next((k for k, w in enumerate(low[:4]) if stem(w) in _words("assume")), None)
    if k is None or not all(_quiet(stem(w)) for w in low[:k]):
        return False
    rest = low[k + 1:]
    return bool(rest) and _plain_predicate(rest, restrictive_ok=True)   # "used by the librarian only": one user


def _reason(low: list[str]) -> bool:
    return bool(low) and low[0] == "for" and all(_quiet(stem(w)) or stem(w) in _words("reasons") for w in low)


def _free_choice(low: list[str]) -> bool:
    """ "<subject> can <verb> anything you like": at most two subject words, one verb."""
    for k in range(len(low) - 2):
        if low[k] in ("anything", "whatever") and low[k + 1] == "you" and stem(low[k + 2]) in _words("free_choice"):
            head = low[:k]
            modal = next((j for j, w in enumerate(head) if w in closed("ability modals")), None)
            return modal is not None and modal <= 3 and len(head) - modal == 2 and low[k + 3:] == []
    return False


NO_LOGIN = "no login, as asked"
NO_PAGES = "no HTML pages, as asked"
NO_ROLES = "no account roles, as asked"


def scope_element(low: str, sw: SpecWords) -> str | None:
    """A negated login or interface word ("no login", "No clientside required", "without a UI"):
    what realises it (the spec lacking it), "" when the spec has it; None for any other word."""
    s = stem(low)
    if s in _words("login_words"):
        return "" if "auth" in sw.present else NO_LOGIN
    if s in _words("interface_words"):
        return "" if sw.entity_pages else NO_PAGES
    if s in _words("role_words"):
        return "" if "roles" in sw.present else NO_ROLES
    return None


def part_kind(low: list[str], sw: SpecWords) -> str | None:
    """What a part (lower-case tokens) is, when it asks for nothing; None when it may ask."""
    if low[:1] and low[0] in _words("conditions"):
        return None   # "If the user is not logged in, …": a rule's condition, not a scope statement
    if _free_choice(low):
        return FREE_CHOICE
    if _reason(low):
        return REASON
    if _asks(low, sw) and not (_scope(low) or _negated_description(low)):
        return None
    if _assumption(low):
        return ASSUMED
    return _scope(low, sw) or _description(low)


def _negated_description(low: list[str]) -> bool:
    return _description(low) == OUT_OF_SCOPE


def background(text: str, sw: SpecWords) -> tuple[list[str | None], str | None]:
    """Per token of `tokens(text)`: the background kind of its part (None: may ask); and the reason
    the whole clause is context, when every part is background."""
    labels: list[str | None] = []
    kinds = []
    for part in parts(text):
        low = [w.lower().replace("’", "'") for w in part]
        while low and low[0] in _LEADING:
            low = low[1:]
        kind = part_kind(low, sw) if low else None
        kinds.append(kind)
        labels += [kind] * len(part)
    whole = None
    if len(labels) != len(tokens(text)):   # a part boundary inside a word: read it as one that may ask
        return [None] * len(tokens(text)), None
    if kinds and all(kinds):
        whole = "; ".join(dict.fromkeys(k.removeprefix("context: ") for k in kinds))
    return labels, whole
