"""Structured-output negotiation: which `response_format` an endpoint accepts, asked once.

Servers differ: OpenAI, vLLM, Ollama and LM Studio take `json_schema`; llama.cpp and
llama-cpp-python answer 500 (or 400/422) to it and take `{"type": "json_object", "schema": …}`;
some take only `json_object`, some nothing. The ladder goes down one rung whenever a 400/422/500
names the format, and a known server family starts lower. The rung that worked is remembered per
endpoint (base URL + model) for the life of the process; every step down is stated once.
The schema is in the prompt text too (agents/ask.py), so the last rung, plain text, still works.
"""

from __future__ import annotations

import re
import threading

from pydantic import BaseModel

LADDER = ("json_schema", "json_object+schema", "json_object", "text")
FORMAT_STATUSES = frozenset({400, 422, 500})
# Words a server uses when it cannot honour the requested format (llama.cpp: "Unsupported
# response_format", "json_schema ... grammar"; vLLM/Ollama/OpenAI: "response_format", "json_schema").
_MENTIONS_FORMAT = re.compile(r"response_format|json_schema|json_object|\bschema\b|grammar|\bformat\b", re.I)
FAMILY_START = {"llama.cpp": "json_object+schema"}

_lock = threading.Lock()
_remembered: dict[str, str] = {}


def endpoint_key(base_url: str, model: str) -> str:
    return f"{base_url.rstrip('/')} {model}"


def remembered(key: str) -> str | None:
    with _lock:
        return _remembered.get(key)


def remember(key: str, rung: str) -> None:
    with _lock:
        _remembered[key] = rung


def forget_all() -> None:
    """For tests: a fresh process's memory."""
    with _lock:
        _remembered.clear()


def response_format(rung: str, schema: type[BaseModel] | None) -> dict | None:
    """The `response_format` of a rung (None: send none; the schema is in the message text)."""
    if rung == "json_schema" and schema is not None:
        return {"type": "json_schema", "json_schema": {"name": schema.__name__,
                                                       "schema": schema.model_json_schema(), "strict": False}}
    if rung == "json_object+schema" and schema is not None:
        return {"type": "json_object", "schema": schema.model_json_schema()}
    if rung in ("json_schema", "json_object+schema", "json_object"):
        return {"type": "json_object"}
    return None


def rejects_format(status: int, body: str) -> bool:
    """True when an error answer to a request with a response_format says the format is the problem."""
    return status in FORMAT_STATUSES and bool(_MENTIONS_FORMAT.search(body or ""))


def next_rung(rung: str) -> str | None:
    i = LADDER.index(rung)
    return LADDER[i + 1] if i + 1 < len(LADDER) else None


def describe(rung: str) -> str:
    return {"json_schema": "response_format json_schema",
            "json_object+schema": "response_format json_object with the schema",
            "json_object": "response_format json_object",
            "text": "no response_format (the schema is in the message)"}[rung]
