"""An outline's headings: the product's name on its first line and one-word section headings.

A request written as an outline ("A book club" / "- Users" / "- Books" / "  - User should be able
to add a books" / "- Review" / "  - Fetch all reviews for a book") names the product on its first
line and groups the asks under one-word headings. The splitter drops the indentation, so:

- the first line, a short noun phrase over at least two more clauses, is the app's title; its
  head noun ("club") names the product, not a record type, unless another clause speaks of it;
- a one-word clause that is the name of a record type the request manages ("Review", singular:
  a verb to the other rules) is the heading of that record type's asks (the pass "entity heads",
  a row of patterns/framing.jsonl).
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_TITLE_WORDS = (2, 4)        # words of a title line, its article included
_MIN_CLAUSES_AFTER = 2
_ARTICLES = word_set("outline_heads.articles")


def _clause_words(toks: list[Tok], clause: int) -> list[Tok]:
    return [t for t in toks if t.clause == clause and t.w[:1].isalpha()]


def _noun_like(t: Tok) -> bool:
    return not rl.is_supported_verb(t.w) or t.w in lx.VERB_NOUNS or lx.singularize(t.w) in lx.VERB_NOUNS


def mark_title_line(toks: list[Tok], clauses: list[str], app_name: str = "") -> str:
    """The app's name a row read (`app_name`), else the title of an outline's first line ("A book club" ->
    "Book Club"), its head noun marked context when no other clause mentions it; "" when the first
    clause is not such a line."""
    if app_name:
        return app_name
    if len(clauses) < 1 + _MIN_CLAUSES_AFTER or clauses[0].rstrip().endswith((".", "!", "?")):
        return ""
    words = _clause_words(toks, 0)
    if not _TITLE_WORDS[0] <= len(words) <= _TITLE_WORDS[1] or any(t.used for t in words):
        return ""
    if len([t for t in toks if t.clause == 0 and t.orig]) != len(words):   # punctuation, digits: no title
        return ""
    body = words[1:] if words[0].w in _ARTICLES else words
    if not body or not all(_noun_like(t) for t in body) or any(t.w in lx.FUNCTION for t in body):
        return ""
    head = body[-1]
    others = {lx.singularize(t.w) for t in toks if t.clause != 0 and t.w}
    if lx.singularize(head.w) not in others and head.w not in lx.META:
        _use(head, "context")
    return " ".join(t.orig[:1].upper() + t.orig[1:] for t in body)

