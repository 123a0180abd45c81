"""Framing by position (docs/accounting.md, rule 2; words/framing_position_en.txt).

A framing word is credited only where it frames the request — "I want", "an app", "users can",
"write me an app" — never as what a clause asks to store. Two rules, over the labels the word
lists gave:

- a framing noun that names people or things (`stored_nouns`: guest, user, people, shop …) in the
  object of a verb that stores or acts on records (`object_verbs`) is no framing: "create a guest
  list" asks for guests (trial 2026-12-07, req2 r3: reported built with no guest record);
- a verb that frames by making the app (`app_verbs`: write, build, develop, make …) frames only
  when its object is the app ("a simple app", "a game tracker": a head of app_names_en.txt, the
  app's title or a framing word heading it) or not said; with one of the spec's records as its object it asks for
  that record: "create" and "make" (`record_verbs`) are realised by the record's create (crud),
  "write my own recipes" asks for the recipe's text and frames nothing (req2 r4: reported built
  over a recipe with no title, ingredients or instructions).

A third rule ties records to people: a `stored_nouns` word after an `owner_verbs` or `assign_verbs`
verb and "by"/"to" ("Item can be owned by a user", "assigned to someone") asks for accounts that own
the records (the login: each record private to the account that added it) or for assignment
(`assigned_to`); the verb and the noun are realised by that element and unaccounted without it
(trial 2026-12-07e F1: reported built with no accounts).

Reads the clause's words, their labels and the spec's words (SpecWords) only.
"""

from __future__ import annotations

from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, keyed_words, listed_forms, same_listed_word, stem

FRAMING = "request framing"
_FILE = "framing_position_en.txt"
_REACH = 6   # words of an object after its openers ("simple household expense tracking web application")
_STOP = closed("framing stops")


def _is(word: str, key: str) -> bool:
    s = stem(word)
    return s in keyed_words(_FILE).get(key, frozenset()) and same_listed_word(word, listed_forms(_FILE).get(s, frozenset()))


def _object(low: list[str], gaps: list[str], v: int, verbs_end: bool = True) -> list[int]:
    """The words of the object of the verb at v: after coordinated verbs ("create and write"),
    openers ("me an", "my own") and up to a function word, a comma or (`verbs_end`) another verb
    ("create a guest list"; not in "a simple expense tracking web application"). None when the
    verb makes someone do something ("make users to put their earnings": the users act)."""
    k = v + 1
    while k + 1 < len(low) and low[k] in ("and", "or") and (_is(low[k + 1], "object_verbs") or _is(low[k + 1], "app_verbs")):
        k += 2   # "create and write my recipes": the object of both
    out: list[int] = []
    while k < len(low) and len(out) < _REACH and low[k] not in _STOP and "," not in gaps[k] \
            and not (verbs_end and _is(low[k], "object_verbs")):
        if out or not _is(low[k], "object_openers"):
            out.append(k)
        k += 1
    if _is(low[v], "causative") and k < len(low) and low[k] == "to":
        return []
    return out


def framing_by_position(toks: list[str], gaps: list[str], labels: list[str | None], sw: SpecWords,
                        title_words: set[int]) -> None:
    """Relabel in place the framing words that stand in the object of a verb (module docstring).
    `title_words`: the indices of the words naming the app (the passes "app name called", "app name is a")."""
    low = [t.lower().replace("’", "'") for t in toks]
    heads = keyed_words("app_names_en.txt")["heads"]
    for v, word in enumerate(low):
        if not _is(word, "object_verbs"):
            continue
        obj = _object(low, gaps, v)
        app = any(stem(low[k]) in heads or k in title_words for k in _object(low, gaps, v, verbs_end=False))
        named = bool(obj) and labels[obj[-1]] == FRAMING and not _is(low[obj[-1]], "stored_nouns")
        for k in obj:
            if labels[k] == FRAMING and _is(low[k], "stored_nouns") and not app:
                labels[k] = None   # "create a guest list": what is stored, not who asks
        if labels[v] != FRAMING or not _is(word, "app_verbs") or app or named:
            continue   # "build a game tracker": a framing word heads the object, the app is meant
        if any(sw.entity_of.get(stem(low[k])) for k in obj):
            labels[v] = sw.present.get("crud", FRAMING) if _is(word, "record_verbs") else None
    _owned_by(low, labels, sw)


def _owned_by(low: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """ "owned by a user", "belongs to a user", "assigned to someone": realised by the login (or by
    assignment), else unaccounted — never framing."""
    for v, word in enumerate(low):
        assign = _is(word, "assign_verbs")
        if not (assign or _is(word, "owner_verbs")) or v + 1 >= len(low) or low[v + 1] not in ("by", "to"):
            continue
        k = v + 2
        while k < len(low) and _is(low[k], "object_openers"):
            k += 1
        if k >= len(low) or not _is(low[k], "stored_nouns") or sw.entity_of.get(stem(low[k])):
            continue   # "belongs to a project": a record's link, the relation's words
        label = sw.present.get("access:assigned") if assign else sw.present.get("auth")
        for i in (v, k):
            labels[i] = label
