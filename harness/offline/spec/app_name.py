"""The app's own name: "a personal expense tracker called Pennywise", "an app named Habit Hero".

The name after "called" / "named" / "titled" right behind an app head (app, tracker, tool, …), or
the capitalised words that open a clause "<Name> is a … <app head>" ("Lifting Diary is a personal
workout tracker for weightlifters"), ask for nothing but a title: its words are context, and the
spec's title is the name. A name is one to three capitalised words; "called" without one ("a list
called favourites") is left to the other rules.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_NAMING = word_set("app_name.naming")
_REACH = 3        # tokens between the app head and "called"
_MAX_WORDS = 3


def mark_app_name(toks: list[Tok]) -> str:
    """Mark the first app name as context and return it ("" when the request names none)."""
    for i, t in enumerate(toks):
        if t.w not in _NAMING or t.used:
            continue
        heads = [k for k in range(max(0, i - _REACH), i) if toks[k].w in lx.APP_HEADS and toks[k].clause == t.clause]
        if not heads:
            continue
        j, name = i + 1, []
        while j < len(toks) and toks[j].clause == t.clause and len(name) < _MAX_WORDS \
                and toks[j].orig[:1].isupper() and toks[j].orig[:1].isalpha():
            name.append(j)
            j += 1
        if not name:
            continue
        for k in (i, *name):
            toks[k].used, toks[k].role = True, "context"
        return " ".join(toks[k].orig for k in name)
    return _name_that_is_an_app(toks)


def _name_that_is_an_app(toks: list[Tok]) -> str:
    """ "Lifting Diary is a personal workout tracker": 1-3 capitalised words opening a clause, then
    "is a/an", then an app head within _REACH words; never a pronoun or other function word ("This")."""
    for i, t in enumerate(toks):
        if t.used or not t.orig[:1].isupper() or (i and toks[i - 1].clause == t.clause):
            continue
        name = []
        j = i
        while j < len(toks) and toks[j].clause == t.clause and len(name) < _MAX_WORDS \
                and toks[j].orig[:1].isupper() and toks[j].orig[:1].isalpha() and not toks[j].used:
            name.append(j)
            j += 1
        if not name or j + 1 >= len(toks) or toks[j].w != "is" or toks[j + 1].w not in ("a", "an"):
            continue
        if any(toks[k].w in lx.FUNCTION for k in name):
            continue   # "This is an app for …", "It is a tool …": a pronoun, not the app's name
        if any(toks[k].w in lx.APP_HEADS and toks[k].clause == t.clause for k in range(j + 2, j + 3 + _REACH)
               if k < len(toks)):
            for k in (*name, j):
                toks[k].used, toks[k].role = True, "context"
            return " ".join(toks[k].orig for k in name)
    return ""
