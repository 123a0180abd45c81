"""Phrases whose words are each harmless alone but together ask for something the generated CRUD
app does not have; each is reported once, as the phrase, so its clause stays not built (the
accounting reads the "unexplained" role: accounting.py)."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok

_WINDOW_START = lx._words("last past previous")
_WINDOW_UNITS = lx._words("day days week weeks month months year years")
_NUMBER_WORDS = lx._words("two three four five six seven eight nine ten twelve fourteen thirty few")
_CAN = lx._words("can could may")
_IN = lx._words("in part member members")
_SOME = lx._words("multiple many several other their its all")
_PEOPLE = lx._words("users members people friends participants players attendees guests")


def mark_unbuilt_phrases(toks: list[Tok]) -> None:
    """Every pass below, in order (after the other passes, before the clauses are accounted)."""
    mark_time_windows(toks)
    mark_memberships(toks)
    mark_people_in_records(toks)


def _report(head: Tok, rest: list[Tok], phrase: str) -> None:
    """`head` carries the phrase as the one unexplained word; `rest` asks nothing more."""
    for t in rest:
        t.used, t.role = True, "context"
    head.orig = phrase
    head.used, head.role = True, "unexplained"


def _text(t: Tok) -> str:
    return t.orig or t.w


def mark_time_windows(toks: list[Tok]) -> None:
    """ "view their last 6 days habit record": a window over the records' history is not something
    the generated CRUD app shows."""
    for i in range(len(toks) - 2):
        first, number, unit = toks[i], toks[i + 1], toks[i + 2]
        if (first.w in _WINDOW_START and unit.w in _WINDOW_UNITS and first.clause == unit.clause
                and (number.w.isdigit() or number.w in _NUMBER_WORDS)):
            _report(unit, [first, number], f"{_text(first)} {_text(number)} {_text(unit)}")


def mark_memberships(toks: list[Tok]) -> None:
    """ "(Users) can be in multiple Events": people belonging to records is a relation the generated
    CRUD app does not have. A record type before it ("a task can be in a project") is the parent
    relation the app builds, and stays as it was."""
    for i in range(1, len(toks) - 1):
        be, where = toks[i], toks[i + 1]
        subject = toks[i - 2] if i >= 2 and toks[i - 2].clause == be.clause else None
        if subject is not None and subject.role.startswith("entity:"):
            continue
        if be.w == "be" and where.w in _IN and toks[i - 1].w in _CAN and be.clause == where.clause:
            _report(be, [where], f"{_text(be)} {_text(where)}")


def mark_people_in_records(toks: list[Tok]) -> None:
    """ "Create groups with multiple users": people as members of each record is a relation the
    generated CRUD app does not have. Only right after a record type: "an app with multiple
    users" asks for accounts, which are built; members stored as records stay as parsed."""
    for i in range(1, len(toks) - 1):
        if toks[i].w != "with" or not toks[i - 1].role.startswith("entity:"):
            continue
        j = i + 1
        while j < len(toks) and toks[j].w in _SOME and toks[j].clause == toks[i].clause:
            j += 1
        if (j < len(toks) and toks[j].w in _PEOPLE and toks[j].clause == toks[i].clause
                and not toks[j].role.startswith("entity:")):
            _report(toks[i], toks[i + 1:j + 1], f"with {_text(toks[j])}")
