"""The parser's word sets as data: one TOML file a grammatical role in harness/offline/words/
(SET_FILES), beside the accounting's framing and function-word lists (*.txt there). A top-level
key is a set the pattern tables name; a [section] holds the sets one code module reads, named
"section.key" (lexicon.py's word classes are [lexicon]); a section may be spread over several
files, a set name may not. The word maps ("word" -> what it maps to) are parser_maps.toml."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

WORDS_DIR = Path(__file__).resolve().parent.parent / "words"
# The word-set files, by the role of their words in a request.
SET_FILES = (
    "framing.toml",       # what frames a request and asks for nothing
    "records.toml",       # the nouns that introduce records
    "fields.toml",        # a record's columns, states, ratings
    "relations.toml",     # parents, links, capacity, bookings
    "features.toml",      # what an app does beyond its records, and what it does not build
    "access.toml",        # who sees and changes what, login methods
    "word_classes.toml",  # lexicon.py's word classes and lexicon_roles.py's roles
)
MAPS_FILE = WORDS_DIR / "parser_maps.toml"

_KEY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*=")
_SECTION = re.compile(r"\s*\[\s*([A-Za-z0-9_-]+)\s*\]")


class WordDataError(ValueError):
    """A word-set file the parser cannot use: its message names the file and the line."""


def _key_lines(text: str) -> dict[str, int]:
    """The line where each set of a word-set file is defined, by its full name ("section.key")."""
    lines, section, in_string = {}, "", False
    for number, line in enumerate(text.splitlines(), 1):
        if in_string:
            pass
        elif header := _SECTION.match(line):
            section = header.group(1)
        elif key := _KEY.match(line):
            lines.setdefault(f"{section}.{key.group(1)}" if section else key.group(1), number)
        in_string ^= line.count('"""') % 2 == 1
    return lines


def load_sets(paths: list[Path]) -> dict[str, frozenset[str]]:
    """Every set of the word-set files `paths`, by name. A malformed file, a value that is not a
    string of words, or a set name defined in two files is a WordDataError naming file and line."""
    out: dict[str, frozenset[str]] = {}
    where: dict[str, str] = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            line = re.search(r"at line (\d+)", str(exc))
            reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
            raise WordDataError(f"{path}:{line.group(1) if line else '?'}: not a word-set file: {reason}") from None
        lines = _key_lines(text)
        for name, value in data.items():
            pairs = value.items() if isinstance(value, dict) else [("", value)]
            for key, words in pairs:
                full = f"{name}.{key}" if key else name
                at = f"{path}:{lines.get(full, '?')}"
                if not isinstance(words, str):
                    raise WordDataError(f"{at}: word set {full!r} is not a string of words")
                if full in where:
                    raise WordDataError(f"{at}: word set {full!r} is defined again (first at {where[full]})")
                where[full], out[full] = at, frozenset(words.split())
    return out


@lru_cache(maxsize=1)
def _table() -> dict[str, frozenset[str]]:
    return load_sets([WORDS_DIR / name for name in SET_FILES])


@lru_cache(maxsize=None)
def word_set(name: str) -> frozenset[str]:
    """The words of the set called `name` in the word-set files; an unknown name is an error naming it."""
    if name not in _table():
        raise KeyError(f"no word set named {name!r} (harness/offline/words/{{{','.join(SET_FILES)}}} or lexicon.py)")
    return _table()[name]


@lru_cache(maxsize=None)
def word_sets(section: str) -> SimpleNamespace:
    """The sets of one [section], by key: `word_sets("entities").sep` is `word_set("entities.sep")`."""
    return SimpleNamespace(**{k.partition(".")[2]: v for k, v in _table().items() if k.startswith(f"{section}.")})


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
    """The sets the word-set files define, in file order (SET_FILES, then each file's order)."""
    return list(_table())
