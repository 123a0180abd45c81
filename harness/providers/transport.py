"""Bounded reads from an LLM endpoint and key scrubbing (used by openai_http).

A socket timeout bounds each *recv*, not the request: a server dripping one byte every 0.5 s
never trips a 60 s timeout. These readers take one recv at a time (`read1`) and check a wall-clock
deadline between them, so a whole body — or one stream line — never takes longer than allowed.
They also count bytes: a body (or a whole stream) past `max_bytes` is refused as soon as it
crosses the limit (#49: a 200 MB answer was buffered whole, ~1 GB peak), so memory stays bounded.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

CHUNK = 65536
MAX_RESPONSE_BYTES = 8 * 1024 * 1024   # a whole answer: ~100x the largest max_tokens answer
MIN_SECRET_CHARS = 4
_TOKEN_CHAR = r"A-Za-z0-9_\-"


class DeadlineExceeded(TimeoutError):
    """The endpoint kept the connection busy past the request's overall deadline."""


class ResponseTooLarge(ValueError):
    """The endpoint sent more than the allowed number of bytes."""


def _too_large(max_bytes: int) -> ResponseTooLarge:
    return ResponseTooLarge(f"the answer is larger than {max_bytes} bytes (HARNESS_LLM_MAX_RESPONSE_BYTES); refused")


def check_declared_length(response, max_bytes: int = MAX_RESPONSE_BYTES) -> None:
    """ResponseTooLarge before reading anything when Content-Length already says too much."""
    declared = response.headers.get("Content-Length") if getattr(response, "headers", None) else None
    if declared and declared.strip().isdigit() and int(declared) > max_bytes:
        raise _too_large(max_bytes)


def read_body(response, deadline: float, max_bytes: int = MAX_RESPONSE_BYTES) -> bytes:
    """The whole body, raising DeadlineExceeded once `deadline` (time.monotonic()) has passed and
    ResponseTooLarge once more than `max_bytes` arrived (or Content-Length announces more)."""
    check_declared_length(response, max_bytes)
    parts: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:
            raise DeadlineExceeded("timed out (overall request deadline)")
        chunk = response.read1(CHUNK)
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        if size > max_bytes:
            raise _too_large(max_bytes)
        parts.append(chunk)


def read_lines(response, line_timeout_s: float, max_bytes: int = MAX_RESPONSE_BYTES,
               total_deadline: float | None = None) -> Iterator[bytes]:
    """Lines of a streamed body; each line must arrive within `line_timeout_s` of the previous one,
    the whole stream within `total_deadline` (time.monotonic(), None: no overall limit) and
    `max_bytes`."""
    buffer = b""
    size = 0
    deadline = time.monotonic() + line_timeout_s
    while True:
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line
            deadline = time.monotonic() + line_timeout_s
        now = time.monotonic()
        if now > deadline:
            raise DeadlineExceeded("timed out (stream stalled mid-line)")
        if total_deadline is not None and now > total_deadline:
            raise DeadlineExceeded("timed out (whole answer deadline)")
        chunk = response.read1(CHUNK)
        if not chunk:
            if buffer:
                yield buffer
            return
        size += len(chunk)
        if size > max_bytes:
            raise _too_large(max_bytes)
        buffer += chunk


def scrub_secret(text: str, secret: str) -> str:
    """`text` with the secret replaced by ***.

    A realistic key (MIN_SECRET_CHARS or more) is replaced wherever it occurs; a shorter one only
    where it stands alone as a token — the README's own `OPENAI_API_KEY=x` must not turn
    "Expecting value" into "E***pecting value".
    """
    if not secret:
        return text
    if len(secret) >= MIN_SECRET_CHARS:
        return text.replace(secret, "***")
    return re.sub(rf"(?<![{_TOKEN_CHAR}]){re.escape(secret)}(?![{_TOKEN_CHAR}])", "***", text)
