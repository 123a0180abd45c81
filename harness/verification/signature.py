"""Failure signatures for loop detection (SPEC M6): same failure => same hash, across runs.

`normalize` rules, in order (the text is lowercased first):
- absolute paths keep only a file name: `/tmp/pytest-of-u/pytest-3/x0/src/main.py` ->
  `<path>/main.py`, a directory (`rootdir: /tmp/x/ws`) -> `<path>`; relative paths are kept,
  they are stable across runs;
- timestamps (ISO dates/datetimes, clock times) -> `<ts>`; hex addresses `0x...` -> `<hex>`;
  UUIDs and long hex ids (>= 8 hex chars with a digit) -> `<id>`; random tokens (16+ word
  characters with 2+ digits, e.g. `secrets.token_urlsafe()`) -> `<tok>`;
- every digit run -> `#`: durations, pids, counts and line numbers all vanish. Two failures
  that differ only in a number (`assert 3 == 4` vs `assert 5 == 4`, line 12 vs 13) therefore
  share a signature; that is intended: a repair that only moves the error is no progress;
- runs of 3+ identical separator characters (`=====`, `_ _ _`) collapse to three, because
  pytest pads its banners to the terminal width around variable-length text;
- whitespace collapses to single spaces.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

STDERR_TAIL = 2000

# An absolute path: a "/" not preceded by a path character, then one or more segments.
_ABS_PATH = re.compile(r"(?<![\w.~/-])(?:[a-z]:)?(?:/[^\s/\"'():,;=\[\]<>]+)+/?")


def _shorten_path(match: re.Match[str]) -> str:
    """Keep a file's name (it tells failures apart); drop directories, they vary per run."""
    last = match.group(0).rstrip("/").rsplit("/", 1)[-1]
    return f"<path>/{last}" if re.search(r"\.[a-z]\w*$", last) else "<path>"


_RULES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str] | str]] = [
    (_ABS_PATH, _shorten_path),
    (re.compile(r"\d{4}-\d{2}-\d{2}(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?"), "<ts>"),
    (re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"), "<ts>"),
    (re.compile(r"\b0x[0-9a-f]+\b"), "<hex>"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<id>"),
    (re.compile(r"(?<![0-9a-z])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}(?![0-9a-z])"), "<id>"),
    # Random tokens (secrets.token_urlsafe, generated names): 16+ word characters with 2+ digits.
    (re.compile(r"(?<![\w-])(?=(?:[\w-]*\d){2})(?=[\w-]*[a-z])[\w-]{16,}(?![\w-])"), "<tok>"),
    (re.compile(r"\d+"), "#"),
    (re.compile(r"([=_\-*+!~^.#])(?:[ ]?\1){2,}"), r"\1\1\1"),
    (re.compile(r"\s+"), " "),
]


def normalize(text: str) -> str:
    """Lowercased `text` with timestamps, ids, absolute paths and numbers made run-independent."""
    out = (text or "").lower()
    for pattern, replacement in _RULES:
        out = pattern.sub(replacement, out)
    return out.strip()


def _tail(text: str, limit: int = STDERR_TAIL) -> str:
    """The last `limit` characters of normalized `text`, starting at a whole word."""
    norm = normalize(text)
    if len(norm) <= limit:
        return norm
    # Cut at a word boundary so the window does not start mid-token differently across runs.
    return norm[-limit:].split(" ", 1)[-1]


def failure_signature(command: str, exit_code: int | None, stderr: str, stdout: str = "") -> str:
    """sha256 hex of normalize(command), exit_code and the normalized tail of the error output.

    pytest reports failures on stdout, so pass `stdout` too: the error text is stdout followed by
    stderr. The tail is taken after normalisation, so runs whose absolute paths differ in length
    still see the same window.
    """
    error_text = "\n".join(part for part in (stdout, stderr) if part and part.strip())
    payload = f"{normalize(command)}\n{exit_code}\n{_tail(error_text)}"
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
