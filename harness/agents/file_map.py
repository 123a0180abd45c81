"""Parsing an LLM answer that must be a JSON object {"relative/path": "full contents"}."""

from __future__ import annotations

from harness.providers.extract import ExtractError, extract_json


class FileMapError(ValueError):
    """The answer is not a {path: contents} JSON object."""


def parse_file_map(text: str) -> dict[str, str]:
    """The file map in `text` (prose, fences and <think> blocks around it are tolerated);
    FileMapError when it is prose only, broken JSON or the wrong shape."""
    try:
        data = extract_json(text)
    except ExtractError as exc:
        raise FileMapError(f"not JSON: {exc}") from None
    if isinstance(data, dict) and set(data) == {"files"} and isinstance(data["files"], dict):
        data = data["files"]  # {"files": {...}}: a common wrapping
    if not isinstance(data, dict) or not data:
        raise FileMapError("expected a non-empty JSON object of {path: contents}")
    for path, contents in data.items():
        if not isinstance(path, str) or not isinstance(contents, str):
            raise FileMapError(f"entry {path!r} is not a string path with string contents")
    return data
