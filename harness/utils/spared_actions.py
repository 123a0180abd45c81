"""What a request says its user need not do: "without having to search", "no need to sort", "I
don't have to type it again". The verb after such a phrase names no feature — the parser builds none
from it and the word accounting counts it as asking for nothing (#48 D9: "without having to search"
gave a search feature). Shared by the parser and the accounting, which must agree."""

from __future__ import annotations

_PHRASES = (("without", "having", "to"), ("without", "needing", "to"), ("without", "need", "to"),
            ("no", "need", "to"), ("don't", "have", "to"), ("do", "not", "have", "to"),
            ("doesn't", "have", "to"), ("does", "not", "have", "to"), ("never", "have", "to"),
            ("don't", "need", "to"), ("do", "not", "need", "to"), ("won't", "have", "to"))


def spared_at(words: list[str], i: int) -> bool:
    """Word i of a clause's lower-case `words` follows a phrase saying the user need not do it."""
    return any(i >= len(p) and tuple(w.replace("’", "'") for w in words[i - len(p):i]) == p for p in _PHRASES)
