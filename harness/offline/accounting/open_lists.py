"""An open-ended list: "(customer, date, total, etc.)", "a make, a model and so on" (acct48 D3).

The items a list names are built; its marker ("etc.", "and so on" — `words/open_lists_en.txt`)
says there are more that the request does not name. The marker asks for nothing the rules could
build, so it does not fail its clause, but it is not a function word either: it is labelled
OPEN_LIST, recorded in the clause's accounting (spec.json), and the draft writes under the clause
that only the named items were built, so the user knows the list was cut and can finish it.
"""

from __future__ import annotations

from functools import lru_cache

from harness.offline.accounting.lexicon import WORDS_DIR, tokens

OPEN_LIST = "open-ended list (only the items named are built)"


@lru_cache(maxsize=None)
def _phrases() -> tuple[tuple[str, ...], ...]:
    text = (WORDS_DIR / "open_lists_en.txt").read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip().lower() for line in text.splitlines())
    return tuple(sorted((tuple(line.split()) for line in lines if line), key=len, reverse=True))


def open_list_marks(toks: list[str], labels: list[str | None]) -> None:
    """Label every word of an open-list marker in `toks` OPEN_LIST (in place)."""
    low = [t.lower().rstrip(".") for t in toks]
    i = 0
    while i < len(low):
        hit = next((p for p in _phrases() if tuple(low[i:i + len(p)]) == p), None)
        if hit is None:
            i += 1
            continue
        for k in range(i, i + len(hit)):
            labels[k] = OPEN_LIST
        i += len(hit)


def open_list_phrases(text: str) -> list[str]:
    """The open-list markers of a clause's text, as written ("etc", "and so on"), in order."""
    toks = tokens(text)
    labels: list[str | None] = [None] * len(toks)
    open_list_marks(toks, labels)
    out, run = [], []
    for tok, label in zip(toks, labels):
        if label == OPEN_LIST:
            run.append(tok.rstrip("."))
        elif run:
            out.append(" ".join(run))
            run = []
    return out + ([" ".join(run)] if run else [])
