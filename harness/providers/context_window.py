"""The model's context window: where the figure comes from, how prompts are fitted, and how an
overflow answer is recognised.

The window is HARNESS_CONTEXT_TOKENS when set, else the server's own figure (server_info.py:
llama.cpp `/props`, `/v1/models` meta), else learned from the first overflow answer ("Requested
tokens (9000) exceed context window of 8192", "maximum context length is 4096 tokens"). An
overflow is never answered with a longer retry: the caller shrinks its prompt (agents/ask.py).
"""

from __future__ import annotations

import re

from harness.errors import ProviderError

CHARS_PER_TOKEN = 3.0        # conservative for JSON-escaped code (English prose is nearer 4)
SYSTEM_RESERVE_TOKENS = 600  # the system message, the chat template and the schema text
ANSWER_SHARE = 3             # at most a third of the window for the answer (max_tokens)
MIN_PROMPT_CHARS = 4000

_OVERFLOW = re.compile(r"context window|context length|context size|maximum context|context_length_exceeded|"
                       r"exceeds? (?:the )?(?:available )?context|too many tokens|prompt is too long", re.I)
_WINDOW = (re.compile(r"context window of (\d+)", re.I), re.compile(r"maximum context length is (\d+)", re.I),
           re.compile(r'"?n_ctx"?\s*[:=]\s*(\d+)', re.I), re.compile(r"context size(?: of| is|:)? \(?(\d+)", re.I))


class ContextOverflowError(ProviderError):
    """The prompt (with max_tokens) does not fit the window; `window` is its size when stated."""

    def __init__(self, message: str, status: int, body: str, window: int | None):
        super().__init__(message)
        self.status, self.body, self.window = status, body, window


def overflow_window(status: int, text: str) -> int | None:
    """None when `text` is not a context-overflow answer; else the window it states (0: not stated)."""
    if status not in (400, 413, 422, 500) or not _OVERFLOW.search(text or ""):
        return None
    for pattern in _WINDOW:
        found = pattern.search(text)
        if found:
            return int(found.group(1))
    return 0


def answer_tokens(window: int, max_tokens: int) -> int:
    return max(256, min(max_tokens, window // ANSWER_SHARE))


def prompt_chars(window: int, max_tokens: int) -> int:
    """The characters a prompt may have in `window` tokens, leaving room for the answer."""
    room = window - answer_tokens(window, max_tokens) - SYSTEM_RESERVE_TOKENS
    return max(MIN_PROMPT_CHARS, int(room * CHARS_PER_TOKEN))
