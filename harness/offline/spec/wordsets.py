"""The parser's word sets as data: harness/offline/words/parser_sets.toml, beside the accounting's
framing and function-word lists. Top-level keys are the sets the pattern tables name; a [section]
holds the sets one code module reads (lexicon.py's word classes are [lexicon]); the word maps
("word" -> what it maps to) are parser_maps.toml."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

SETS_FILE = Path(__file__).resolve().parent.parent / "words" / "parser_sets.toml"
MAPS_FILE = SETS_FILE.with_name("parser_maps.toml")


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


@lru_cache(maxsize=1)
def _maps() -> dict[str, dict[str, str]]:
    data = tomllib.loads(MAPS_FILE.read_text(encoding="utf-8"))
    return {f"{module}.{name}": words for module, maps in data.items() for name, words in maps.items()}


def word_map(name: str) -> dict[str, str]:
    """The word map called `name` ("<module>.<name>" of parser_maps.toml), in file order."""
    if name not in _maps():
        raise KeyError(f"no word map named {name!r} ({MAPS_FILE.name})")
    return dict(_maps()[name])


def set_names() -> list[str]:
    """The sets the data file defines, in file order."""
    return list(_table())
