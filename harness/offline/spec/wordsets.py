"""The word sets the pattern tables name: harness/offline/words/parser_sets.toml (beside the
accounting's framing and function-word lists), or a word class of lexicon.py by its upper-case
name ("DETERMINERS"). A name neither knows is an error naming it."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from harness.offline.spec import lexicon as lx

SETS_FILE = Path(__file__).resolve().parent.parent / "words" / "parser_sets.toml"


@lru_cache(maxsize=1)
def _table() -> dict[str, frozenset[str]]:
    data = tomllib.loads(SETS_FILE.read_text(encoding="utf-8"))
    return {name: frozenset(text.split()) for name, text in data.items()}


@lru_cache(maxsize=None)
def word_set(name: str) -> frozenset[str]:
    """The words of the set called `name`."""
    if name in _table():
        return _table()[name]
    value = getattr(lx, name, None) if name.isupper() else None
    if isinstance(value, (frozenset, set, dict)):
        return frozenset(value)
    raise KeyError(f"no word set named {name!r} ({SETS_FILE.name} or lexicon.py)")


def set_names() -> list[str]:
    """The sets the data file defines, in file order."""
    return list(_table())
