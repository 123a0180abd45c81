"""Parsing an LLM answer that must be a JSON object {"relative/path": "full contents"}."""

from __future__ import annotations

import json
import re

_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n\s*```\s*$", re.S)


class FileMapError(ValueError):
    """The answer is not a {path: contents} JSON object."""


def parse_file_map(text: str) -> dict[str, str]:
    """The file map in `text`; FileMapError when it is prose, broken JSON or the wrong shape."""
    match = _FENCE.match(text or "")
    body = match.group(1) if match else (text or "")
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise FileMapError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict) or not data:
        raise FileMapError("expected a non-empty JSON object of {path: contents}")
    for path, contents in data.items():
        if not isinstance(path, str) or not isinstance(contents, str):
            raise FileMapError(f"entry {path!r} is not a string path with string contents")
    return data
