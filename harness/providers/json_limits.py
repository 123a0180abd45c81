"""JSON from an LLM endpoint, parsed with a nesting limit.

The standard parser recurses once per nesting level: a body of 100,000 `[` raised RecursionError
(a traceback, #49). `check_depth` scans the text without recursion first (string literals are
skipped, so brackets inside strings do not count) and stops at the first level past the limit.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_JSON_DEPTH = 200          # far beyond any file map, spec or plan; far below the recursion limit
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


class JSONTooDeep(ValueError):
    """The text nests arrays/objects deeper than allowed."""


def check_depth(text: str, limit: int = MAX_JSON_DEPTH) -> None:
    """JSONTooDeep when `text` opens more than `limit` arrays/objects inside one another."""
    if text.count("[") + text.count("{") <= limit:
        return  # cannot nest deeper than it has brackets
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                raise JSONTooDeep(f"JSON nested deeper than {limit} levels; refused")
        else:
            depth = max(0, depth - 1)


def loads(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> Any:
    """json.loads with the nesting limit (JSONTooDeep is a ValueError, like a JSON syntax error)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "replace")
    check_depth(text, limit)
    return json.loads(text)
