"""Request text -> clauses: lines, bullets, numbered items, sentences and "X; Y" parts.

A clause is the unit the coverage accounting works on: each one is later mapped to the
requirements that implement it, marked not built, or marked context. Pure and deterministic.
"""

from __future__ import annotations

import re

from harness.errors import SpecError
from harness.offline.spec import lexicon as lx
from harness.offline.spec.wordsets import word_set
from harness.utils.request_text import BULLET, plain_text

MAX_CLAUSES = 120          # more clauses than this: the request is refused with the cap stated
MAX_CLAUSE_CHARS = 6000    # a longer "clause" is cut (the cut is visible in the clause text)

_BULLET = BULLET
# A sentence ends at . ! ? followed by space/end, except after common abbreviations.
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bMr)(?<!\bDr)(?<!\(ex)(?<!\(Ex)(?<!\(eg)"
                           r"(?<!\(Eg)(?<!\(E\.g)[.!?]+(?=\s|$)")
# A list letter inside a line, at a clause's start or after a colon: "shall: a) Store ...", "b) Allow ...".
_LIST_LETTER = re.compile(r"(?:^|(?<=:))\s*\(?[a-zA-Z]\)(?=\s)")


def split_clauses(text: str) -> list[str]:
    """The request's clauses in order; raises SpecError above MAX_CLAUSES."""
    out: list[str] = []
    for line in _lines(text):
        for sentence in _sentences(line):
            for part in sentence.split(";"):
                part = _LIST_LETTER.sub("", part.strip(" \t,-–—")).lstrip(":").strip()
                if any(ch.isalnum() for ch in part):
                    out.append(part[:MAX_CLAUSE_CHARS])
    if len(out) > MAX_CLAUSES:
        raise SpecError(f"the request has {len(out)} clauses; the offline parser reads at most "
                        f"{MAX_CLAUSES} (split it into smaller requests)")
    return out


def _lines(text: str) -> list[str]:
    """The request's lines without their bullets; a line that starts in lower case right after a
    line with no sentence end ("... including ingredients," / "steps, and an image.") continues
    that line: the user's editor wrapped it, the sentence goes on."""
    lines: list[str] = []
    prev_open = False
    listing = False   # the previous line was "Events have:" (or a short item joined to it)
    for raw in plain_text(text or "").replace("\r", "\n").split("\n"):
        line = _BULLET.sub("", raw, count=1).strip()
        if not line:
            prev_open = False
            continue
        if listing and raw.strip() != line and _is_short_item(line):
            # "Events have:" then "- Title", "- Deadline": one list, as "Events have: Title, Deadline"
            lines[-1] = (f"{lines[-1]} {line}" if lines[-1].endswith(":") else f"{lines[-1]}, {line}")
            continue
        listing = False
        if prev_open and raw.strip() == line and line[0].islower():
            lines[-1] = f"{lines[-1]} {line}"
        else:
            lines.append(line)
        prev_open = not line.endswith((".", "!", "?", ":", ";"))
        listing = _is_record_header(line)
    return lines


# "Events have:", "Each event has:", "A recipe contains:" — a header whose bullets are its fields
_HAS_HEADER = re.compile(r"\b(\w+) (?:has|have|contains?)(?: the following(?: fields)?)?:\s*$", re.I)
# ... but "The app has:", "Users have:", "It has:" list features or abilities, one clause each
_NOT_RECORDS = word_set("clauses.not_records")


def _is_record_header(line: str) -> bool:
    match = _HAS_HEADER.search(line)
    return bool(match) and match.group(1).lower() not in _NOT_RECORDS


def _is_short_item(line: str) -> bool:
    """A bullet of a field list: a few words, no sentence of its own; its type ("deliveryOn (date)")
    or another name ("Full name (Name)") may follow it in brackets, and two fields may share it
    ("Start Time and End Time": each part a few words)."""
    line = _SHORT_ASIDE.sub("", _TYPE_ASIDE.sub("", line))
    parts = _JOINED.split(line)
    return len(parts) <= 3 and all(0 < len(p.split()) <= 4 for p in parts) \
        and not line.endswith((".", "!", "?", ":", ";")) and "(" not in line


_TYPE_ASIDE = re.compile(r"\s*\((?:" + "|".join(sorted(lx.TYPE_ASIDES)) + r")\)$", re.I)
_SHORT_ASIDE = re.compile(r"\s*\(\s*[^()\s]+(?:\s[^()\s]+)?\s*\)$")   # "(Name)", "(e-mail address)"
_JOINED = re.compile(r"\s+(?:and|or|&)\s+|\s*[,/]\s*", re.I)


def _sentences(line: str) -> list[str]:
    parts, start = [], 0
    for m in _SENTENCE_END.finditer(line):
        parts.append(line[start:m.end()])
        start = m.end()
    parts.append(line[start:])
    merged: list[str] = []
    for p in (p.strip() for p in parts):
        # "As a user, I want X. So that Y." stays one story; a tiny fragment joins its neighbour.
        if merged and (p.lower().startswith("so that") or len(p.split()) == 1 and not p.endswith(("!", "?"))):
            merged[-1] = f"{merged[-1]} {p}"
        elif p:
            merged.append(p)
    return merged
