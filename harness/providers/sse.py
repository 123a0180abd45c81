"""Reading an answer from an OpenAI-compatible endpoint: a server-sent event stream or one JSON body.

A streamed answer has a per-chunk deadline (HARNESS_LLM_TIMEOUT_S: the longest silence allowed)
and an overall one (HARNESS_LLM_MAX_ANSWER_S), so a slow local model that keeps producing tokens
is waited for, while a stalled one is not. Every chunk reports progress (characters so far) to
`on_progress`. A server that ignores `stream: true` and sends one JSON body is read as such.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from harness.providers.json_limits import loads
from harness.providers.transport import MAX_RESPONSE_BYTES, read_body, read_lines


class StreamError(ValueError):
    """The stream carried an error object or a malformed chunk (the text says which)."""


@dataclass
class Collected:
    content: str | None
    usage: Any                 # the raw "usage" object, parsed by the caller
    finish_reason: str | None


def is_event_stream(response) -> bool:
    return "text/event-stream" in (response.headers.get("Content-Type") or "").lower()


def events(response, chunk_timeout_s: float, total_deadline: float | None,
           max_bytes: int = MAX_RESPONSE_BYTES) -> Iterator[dict]:
    """The JSON chunks of an SSE body until `data: [DONE]`; StopIteration without [DONE] is the
    caller's to judge (a cut-off stream)."""
    for raw in read_lines(response, chunk_timeout_s, max_bytes, total_deadline):
        line = raw.decode("utf-8", "replace").strip()
        if not line.startswith("data:"):
            continue  # blank separators, comments (":"), event:/id: fields
        payload = line[5:].strip()
        if payload == "[DONE]":
            return
        try:
            chunk = loads(payload)
        except ValueError as exc:
            raise StreamError(f"a malformed stream chunk ({exc}): {payload[:200]}") from None
        if isinstance(chunk, dict):
            if chunk.get("error"):
                raise StreamError(f"stream error: {str(chunk['error'])[:300]}")
            yield chunk
    raise EOFError("stream ended without [DONE] (truncated)")


def collect(response, chunk_timeout_s: float, total_deadline: float | None, json_deadline: float,
            on_progress: Callable[[int], None] | None = None,
            max_bytes: int = MAX_RESPONSE_BYTES) -> Collected:
    """The whole answer of `response`, streamed or not."""
    if not is_event_stream(response):
        data = loads(read_body(response, json_deadline, max_bytes))
        if not isinstance(data, dict):
            raise StreamError("a non-object JSON answer")
        try:
            choice = data["choices"][0]
            content = choice["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise StreamError(f"no choices[0].message in the answer: {str(data)[:300]}") from None
        finish = choice.get("finish_reason") if isinstance(choice, dict) else None
        return Collected(content if isinstance(content, str) else None, data.get("usage"), finish)
    parts: list[str] = []
    size, usage, finish = 0, None, None
    for chunk in events(response, chunk_timeout_s, total_deadline, max_bytes):
        usage = chunk.get("usage") or usage
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict):
                continue
            finish = choice.get("finish_reason") or finish
            text = (choice.get("delta") or {}).get("content")
            if isinstance(text, str) and text:
                parts.append(text)
                size += len(text)
        if on_progress is not None:
            on_progress(size)
    return Collected("".join(parts), usage, finish)


def deadline_after(seconds: float | None) -> float | None:
    return None if seconds is None else time.monotonic() + seconds
