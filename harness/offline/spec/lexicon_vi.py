"""Vietnamese vocabulary for the rule-based spec parser: phrase -> English words, tone normalization.

The phrase table is data (harness/offline/words/vi_phrases.toml), read into a dict keyed by
syllable tuples (stable order); `normalize_vi` gives one tone placement.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from harness.offline.spec.wordsets import word_map

VI_MARKERS = frozenset("ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ")

_TONE_STYLE = word_map("lexicon_vi.tone_style")


def normalize_vi(syllable: str) -> str:
    """One canonical tone placement for a lowercase Vietnamese syllable."""
    if len(syllable) >= 2 and syllable[-2:] in _TONE_STYLE:
        return syllable[:-2] + _TONE_STYLE[syllable[-2:]]
    return syllable


# Vietnamese phrase -> English words ("" drops it), longest match wins: harness/offline/words/vi_phrases.toml
_VI_TABLE = tomllib.loads((Path(__file__).resolve().parent.parent / "words" / "vi_phrases.toml")
                          .read_text(encoding="utf-8"))["phrases"]


def _vi_lexicon() -> dict[tuple[str, ...], str]:
    table: dict[tuple[str, ...], str] = {}
    for entry in _VI_TABLE.replace("\n", "|").split("|"):
        if "=" in entry:
            phrase, english = entry.split("=", 1)
            table[tuple(normalize_vi(s) for s in phrase.split())] = english.strip()
    return table


VI_LEXICON = _vi_lexicon()
VI_MAX_WORDS = max(len(k) for k in VI_LEXICON)
