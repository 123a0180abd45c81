"""Bounded reads from an LLM endpoint and key scrubbing (used by openai_http).

A socket timeout bounds each *recv*, not the request: a server dripping one byte every 0.5 s
never trips a 60 s timeout. These readers take one recv at a time (`read1`) and check a wall-clock
deadline between them, so a whole body — or one stream line — never takes longer than allowed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

CHUNK = 65536
MIN_SECRET_CHARS = 4
_TOKEN_CHAR = r"A-Za-z0-9_\-"


class DeadlineExceeded(TimeoutError):
    """The endpoint kept the connection busy past the request's overall deadline."""


def read_body(response, deadline: float) -> bytes:
    """The whole body, raising DeadlineExceeded once `deadline` (time.monotonic()) has passed."""
    parts: list[bytes] = []
    while True:
        if time.monotonic() > deadline:
            raise DeadlineExceeded("timed out (overall request deadline)")
        chunk = response.read1(CHUNK)
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)


def read_lines(response, line_timeout_s: float) -> Iterator[bytes]:
    """Lines of a streamed body; each line must arrive within `line_timeout_s` of the previous one."""
    buffer = b""
    deadline = time.monotonic() + line_timeout_s
    while True:
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line
            deadline = time.monotonic() + line_timeout_s
        if time.monotonic() > deadline:
            raise DeadlineExceeded("timed out (stream stalled mid-line)")
        chunk = response.read1(CHUNK)
        if not chunk:
            if buffer:
                yield buffer
            return
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
