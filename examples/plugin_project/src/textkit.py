"""textkit: a small text library, the example project the harness's pytest plugin gates."""

from __future__ import annotations

import math
import re

WORDS_PER_MINUTE = 200


def word_count(text: str) -> int:
    """Words in `text`: runs of letters, digits, apostrophes and hyphens."""
    return len(re.findall(r"[\w'-]+", text))


def slugify(title: str) -> str:
    """A URL slug: lower case, ASCII letters and digits joined by single hyphens."""
    return "-".join(re.findall(r"[a-z0-9]+", title.lower()))


def reading_minutes(text: str) -> int:
    """Whole minutes to read `text` at WORDS_PER_MINUTE, at least 1 for any text with words."""
    words = word_count(text)
    return max(1, math.ceil(words / WORDS_PER_MINUTE)) if words else 0
