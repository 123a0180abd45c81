"""What is sent to an OpenAI-compatible chat endpoint and how its answer is read back: the
messages of one request, the fence around a JSON answer, and validation errors worded for the model.
No I/O here; the HTTP exchange is harness/providers/openai_http.py."""

from __future__ import annotations

import re

from pydantic import ValidationError

from harness.providers.base import M
from harness.providers.extract import extract_json  # tolerant: prose, fences, <think> blocks

INSTRUCTIONS_HEAD = "Instructions (as in the system message): "
ERRORS_CHARS = 3000              # validation errors fed back to the model: all of them, bounded

_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n(.*?)\n?\s*```\s*$", re.DOTALL)


def strip_fences(text: str) -> str:
    """The inside of a ```json ... ``` fence, or `text` stripped when there is none."""
    match = _FENCE.match(text)
    return (match.group(1) if match else text).strip()


def chat_messages(prompt: str, system: str) -> list[dict]:
    """The system message, and its instructions again at the head of the user message: some local
    chat templates (Gemma's among them) drop or fold the system role, and the model then never
    sees what it is asked to be."""
    if not system:
        return [{"role": "user", "content": prompt}]
    return [{"role": "system", "content": system},
            {"role": "user", "content": f"{INSTRUCTIONS_HEAD}{system}\n\n{prompt}"}]


def validate_answer(content: str | None, schema: type[M]) -> M:
    return schema.model_validate(extract_json(content))


def short_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        text = validation_errors(exc)
    else:
        text = str(exc)
    return text[:ERRORS_CHARS]


def validation_errors(exc: ValidationError, limit: int = ERRORS_CHARS) -> str:
    """Every error of `exc` as "loc: msg" (the model needs all of them, not the first three)."""
    parts = [f"{'.'.join(map(str, e['loc'])) or '<root>'}: {e['msg']}" for e in exc.errors()]
    text = "; ".join(parts)
    return text if len(text) <= limit else text[:limit] + f"... ({exc.error_count()} errors in all)"
