"""A list the app itself is: "a Movie Watchlist application", "a book wishlist app".

When a collection noun (watchlist, wishlist) stands between a record noun and the app head, it
names the app's collection of those records, not a second record type: the records are the
movies, and "add movies to a personal watchlist" adds movies. Every mention of that collection
noun is marked as framing (context) before entities are found; the record noun before it stays
an entity candidate. A collection noun that is not the app's name ("users add products to
their wishlist" in a shop) is left alone.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

COLLECTION_NOUNS = word_set("record_lists.collection_nouns")


def mark_app_collections(toks: list[Tok]) -> None:
    """Mark the collection noun of "<record> <watchlist> <app head>" (and its other mentions)."""
    names = {t.w for i, t in enumerate(toks) if t.w in COLLECTION_NOUNS and not t.used
             and _record_word(toks, i - 1) and toks[i - 1].clause == t.clause and _names_the_app(toks, i)}
    singular = {lx.singularize(w) for w in names}
    for t in toks:
        if not t.used and t.w in COLLECTION_NOUNS and lx.singularize(t.w) in singular:
            _use(t, "context")


def _names_the_app(toks: list[Tok], i: int) -> bool:
    """ "<record> watchlist app", or the request's title: "A movie watchlist: each movie has …"."""
    if _word(toks, i + 1) in lx.APP_HEADS:
        return True
    start = next((k for k in range(len(toks)) if toks[k].w[:1].isalnum()), 0)
    return _word(toks, i + 1) in (":", "") and i - start <= 3 and toks[start].clause == toks[i].clause == 0


def _record_word(toks: list[Tok], i: int) -> bool:
    """A word that can name the records ("Movie", "Book" — also a verb elsewhere)."""
    w = _word(toks, i)
    return w.isalpha() and w not in lx.FUNCTION | lx.DETERMINERS | lx.ADJECTIVES | lx.QUANTIFIERS
