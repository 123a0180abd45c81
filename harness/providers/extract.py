"""Tolerant extraction of the JSON object in a model's answer (prose, fences, <think> blocks)."""

from __future__ import annotations

import json
import re
from typing import Any

from harness.providers.json_limits import JSONTooDeep, check_depth

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.S | re.I)
_FENCE = re.compile(r"^[ \t]*```[\w-]*[ \t]*\n(.*?)\n[ \t]*```[ \t]*$", re.S | re.M)
_DECODER = json.JSONDecoder()


class ExtractError(ValueError):
    """The answer holds no JSON object."""


def strip_reasoning(text: str) -> str:
    """`text` without <think>…</think> blocks (an unclosed one runs to the end)."""
    return _THINK.sub("", text or "").strip()


def extract_json(text: str | None) -> Any:
    """The JSON object of the answer: the whole text, else a fenced block, else the first
    `{...}` that decodes; ExtractError naming the JSON error otherwise."""
    body = strip_reasoning(text or "")
    if not body:
        raise ExtractError("empty answer")
    try:
        check_depth(body)
    except JSONTooDeep as exc:
        raise ExtractError(str(exc)) from None
    try:
        return json.loads(body)
    except ValueError as exc:
        first = exc
    for match in _FENCE.finditer(body):
        try:
            return json.loads(match.group(1))
        except ValueError:
            continue
    for match in re.finditer(r"\{", body):
        try:
            value, _ = _DECODER.raw_decode(body, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise ExtractError(f"no JSON object in the answer ({_describe(first)})")


def _describe(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    return str(exc)
