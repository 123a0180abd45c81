"""The parser's word sets as data: harness/offline/words/parser_sets.toml, beside the accounting's
framing and function-word lists. Top-level keys are the sets the pattern tables name; a [section]
holds the sets one code module reads (lexicon.py's word classes are [lexicon])."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

SETS_FILE = Path(__file__).resolve().parent.parent / "words" / "parser_sets.toml"


@lru_cache(maxsize=1)
def _table() -> dict[str, frozenset[str]]:
    """Every set of the data file: a top-level key by its name, a key of a [section] (the sets one
    code module reads) as "section.key"."""
    out = {}
    for name, value in tomllib.loads(SETS_FILE.read_text(encoding="utf-8")).items():
        pairs = value.items() if isinstance(value, dict) else [("", value)]
        for key, text in pairs:
            out[f"{name}.{key}" if key else name] = frozenset(text.split())
    return out


@lru_cache(maxsize=None)
def word_set(name: str) -> frozenset[str]:
    """The words of the set called `name` in the data file; an unknown name is an error naming it."""
    if name not in _table():
        raise KeyError(f"no word set named {name!r} ({SETS_FILE.name} or lexicon.py)")
    return _table()[name]


def set_names() -> list[str]:
    """The sets the data file defines, in file order."""
    return list(_table())
