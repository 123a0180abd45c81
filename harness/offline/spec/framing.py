"""Clauses that ask the app for nothing although their words are unknown: a bare heading over the
asks that follow it ("Non-functional:", "User flows:") and an instruction to whoever writes the
spec ("Do not add technical details", "keep it fully product-focused").

A heading is a short clause ending in ":" with a clause that is no heading after it; the lines under it carry
the asks, the heading only groups them. A heading that names something the generator does not
build ("Reports:", "Notifications:") keeps that word unexplained. An instruction to the spec
writer speaks about the spec's own content (technical or implementation details, a product
focus); a clause that asks the app for something ("do not show technical errors to users") is
not one. A bare HTTP-method note after a user story ("GET request") says which method the story
is. All three are marked context; everything else is left to the accounting.
"""

from __future__ import annotations

import re

from harness.offline.spec import lexicon as lx
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_HEADING_WORDS = 4
# "Do not add technical details", "don't include implementation specifics", "no technical jargon"
_NO_TECH = re.compile(r"^(?:please\s+)?(?:do\s+not|don'?t|never|avoid|no\s+need\s+to|without|no)\s+"
                      r"(?:(?:add|include|mention|give|go\s+into|write|specify|use|describe|adding|including)\s+)?"
                      r"(?:any\s+)?(?:technical|implementation|tech|code)[\s-]+"
                      r"(?:details?|specifics|jargon|decisions|choices)\b", re.I)
# "keep it fully product-focused", "keep the spec business-oriented", "focus on the what, not the how"
_FOCUS = re.compile(r"^(?:please\s+)?(?:keep|make)\s+(?:it|this|the\s+spec\w*|everything|the\s+document)\s+"
                    r"(?:\w+\s+)?(?:product|business|user|non-technical)[\s-]*(?:focused|oriented|centric|level)?\W*$"
                    r"|^(?:please\s+)?focus\s+on\s+(?:the\s+)?what\b.*\bnot\s+(?:the\s+)?how\b", re.I)


# "- GET request" after a user story (alfasoftware/library): which HTTP method the story is; the
# story carries the ask and the API serves every method of its records
_HTTP_NOTE = re.compile(r"^(?:a\s+|an\s+)?(?:GET|POST|PUT|PATCH|DELETE)\s+(?:request|endpoint|call|route|method)s?\W*$")


# "Decide on fields that a book should have": the builder chooses the record's fields; the record
# type stays the ask (its entity), the rest of the words are the instruction
_FIELD_CHOICE = re.compile(r"^(?:please\s+)?(?:decide|choose|pick|define)\s+(?:on\s+|upon\s+)?(?:the\s+|which\s+|what\s+)?"
                           r"(?:fields|attributes|properties|columns|details)\b", re.I)


def is_writer_instruction(clause: str) -> bool:
    """Whether the clause tells the spec writer how to write ("Do not add technical details")."""
    text = " ".join(clause.split()).rstrip(".!;")
    return bool(_NO_TECH.match(text) or _FOCUS.match(text))


def _title_like(clause: str) -> bool:
    text = clause.strip()
    return text.endswith(":") and len(re.findall(r"[\w'-]+", text)) <= _HEADING_WORDS


def is_heading(clauses: list[str], index: int) -> bool:
    """A short "Title:" clause heading at least one clause that is not itself a title (an empty
    section, "Integrations:" right before "Misc:", heads nothing and keeps its words)."""
    nxt = clauses[index + 1] if index + 1 < len(clauses) else None
    return _title_like(clauses[index]) and nxt is not None and not _title_like(nxt)


_STATEMENT_STARTS = word_set("framing.statement_starts")


def _sequence_connective(toks: list[Tok], k: int) -> bool:
    return (toks[k].w == "after" and not toks[k].used and k + 2 < len(toks)
            and toks[k + 1].w == "that" and toks[k + 2].w in _STATEMENT_STARTS
            and toks[k + 1].clause == toks[k + 2].clause == toks[k].clause)


def mark_framing(toks: list[Tok], clauses: list[str], never: frozenset[str]) -> None:
    """Mark the unconsumed words of headings and spec-writer instructions as context (a word of
    `never` in a heading stays unexplained; a heading whose words a rule recognised, "Products:"
    over its fields, is left as it is)."""
    claimed = {t.clause for t in toks if t.used and t.role and t.role != "context" and not t.role.endswith(":")}
    headings = {k for k, c in enumerate(clauses) if is_heading(clauses, k) and k not in claimed}
    writer = {k for k, c in enumerate(clauses) if is_writer_instruction(c) or _HTTP_NOTE.match(c.strip())}
    choices = {k for k, c in enumerate(clauses) if _FIELD_CHOICE.match(c.strip())
               and any(t.clause == k and t.role.startswith("entity:") for t in toks)}
    for k, t in enumerate(toks):
        if _sequence_connective(toks, k):
            t.used, t.role = True, "context"
            continue
        if t.clause in choices and not t.role.startswith("entity:"):
            t.used, t.role = True, "context"
            continue
        if t.used or t.clause not in headings | writer:
            continue
        if t.clause in headings and t.clause not in writer and (t.w in never or lx.singularize(t.w) in never):
            continue
        t.used, t.role = True, "context"
