"""A record must be introduced by the request (#48, stranger trial 2026-12-07e R2/R7).

Every record of the spec must be accounted to words of the request that introduce a thing the user
manages. The parser proposed records from any noun in a record's position — "so I can keep track
of progress" (a story's purpose) made a `progress` record, "so I can log the number of reps" (a
purpose, and a measure) a `rep` record, "House managers and mechanics have a difficult time
coordinating …" (a problem statement) a `mechanic` record with a field "difficult time" — and each
got a PASSing create/list/update/delete requirement nobody asked for.

A word introduces its record unless it stands where a request names no managed thing: a story's
purpose ("so that …") or role ("As a …"), the actor before a modal ("The gym can …"), a negated or
background part (context.py), an example, a bullet's heading before verbs ("Mechanics: figure out
…", `label_verbs`; "Room: A bookable space …" introduces its record), a measure's
complement ("the number of reps", `measures` of words/introducing_en.txt) or the subject of a
problem statement ("… have a difficult time …", `problem`). A record every word of which stands
in such places is **invented**: its words are unaccounted in every clause (the clause is not built,
naming them: `record_introductions.py`), and `offline/spec` builds the spec again without it (`invented_left_out`).
Reads the clause texts and the finished spec only.
"""

from __future__ import annotations

from functools import lru_cache

from harness.offline.accounting.lexicon import WORDS_DIR, closed, stem, tokens
from harness.models.spec import AppSpec

_FILE = "introducing_en.txt"
MEASURE = "a measure of something (what is counted, not a record)"
PROBLEM = "who has the problem a problem statement describes"
HEADING = "a heading"
EXAMPLE = "an example"
_DETS = closed("introduced determiners")
_CUT = frozenset({",", ";", ":", "."})


@lru_cache(maxsize=1)
def _phrases() -> tuple[frozenset[str], tuple[tuple[str, ...], ...], frozenset[str]]:
    """The stems of `measures`, the problem phrases and the `possession` verbs (lower-case words) of
    introducing_en.txt."""
    measures: set[str] = set()
    problems: list[tuple[str, ...]] = []
    possession: set[str] = set()
    for line in (WORDS_DIR / _FILE).read_text(encoding="utf-8").splitlines():
        key, _, words = line.split("#", 1)[0].partition(":")
        if key.strip() == "measures":
            measures |= {stem(w) for w in words.lower().split()}
        elif key.strip() == "possession":
            possession |= set(words.lower().split())
        elif key.strip() == "problem" and words.split():
            problems.append(tuple(words.lower().split()))
    return frozenset(measures), tuple(problems), frozenset(possession)


def problem_spans(low: list[str]) -> list[tuple[int, int]]:
    """(start, end) of each problem phrase in the lower-case words of a clause."""
    out = []
    for phrase in _phrases()[1]:
        n = len(phrase)
        out += [(k, k + n) for k in range(len(low) - n + 1) if tuple(low[k:k + n]) == phrase]
    return sorted(out)


def problem_framing(toks: list[str], labels: list[str | None], framing: str) -> None:
    """The words of a problem phrase that nothing else realises frame the request."""
    for a, b in problem_spans([t.lower() for t in toks]):
        for k in range(a, b):
            labels[k] = labels[k] or framing


def invented_stems(spec: AppSpec, invented: dict[str, str]) -> dict[str, str]:
    """word stem of an invented record's name or plural -> the note the reason and draft give it."""
    out = {}
    for e in spec.data_model:
        if e.ident in invented:
            for name in (e.name, e.plural):
                for t in tokens(name):
                    out[stem(t.lower())] = f" (no record built: named only as {invented[e.ident]})"
    return out


def reject_invented(toks: list[str], labels: list[str | None], notes: dict[str, str]) -> None:
    """An invented record's words are realised by nothing: the clause is not built, naming them."""
    for i, tok in enumerate(toks):
        if stem(tok.lower()) in notes and (labels[i] or "").startswith("entity "):
            labels[i] = None
