"""A llama.cpp-style OpenAI-compatible server around any scripted responder (e.g. NotesModel).

What a local llama.cpp / llama-cpp-python server does differently from the cloud, as met when
serving a real model (#50): `response_format: json_schema` answers 500, while
`{"type": "json_object", "schema": …}` is honoured; a prompt that with its `max_tokens` does not
fit the context window answers 400 "Requested tokens (N) exceed context window of M"; answers
stream token by token, slowly. Token counts are estimated as characters / `chars_per_token`.
"""

from __future__ import annotations

import math

from fake_openai_server import RecordedRequest, Reply, error, slow_stream

SCHEMA_500 = "Unsupported response_format type: json_schema (use json_object with a schema)"


class LlamaCppLike:
    def __init__(self, inner, n_ctx: int | None = None, chars_per_token: float = 3.3,
                 reject_json_schema: bool = True, stream_every_s: float = 0.0):
        self.inner = inner
        self.n_ctx = n_ctx
        self.chars_per_token = chars_per_token
        self.reject_json_schema = reject_json_schema
        self.stream_every_s = stream_every_s
        self.formats: list[str | None] = []   # the response_format of every request, as "type(+schema)"
        self.schema_500s = 0
        self.overflows = 0
        self.largest_prompt_tokens = 0        # of the requests that were answered

    def prompt_tokens(self, body: dict) -> int:
        text = "".join(str(m.get("content", "")) for m in body.get("messages", []))
        return math.ceil(len(text) / self.chars_per_token) + 8 * len(body.get("messages", []))

    def __call__(self, request: RecordedRequest) -> Reply:
        body = request.body if isinstance(request.body, dict) else {}
        fmt = body.get("response_format") or {}
        self.formats.append((fmt["type"] + ("+schema" if "schema" in fmt else "")) if fmt else None)
        if self.reject_json_schema and fmt.get("type") == "json_schema":
            self.schema_500s += 1
            return error(500, SCHEMA_500)
        if self.n_ctx is not None:
            wanted = self.prompt_tokens(body) + int(body.get("max_tokens") or 0)
            if wanted > self.n_ctx:
                self.overflows += 1
                return error(400, f"Requested tokens ({wanted}) exceed context window of {self.n_ctx}")
            self.largest_prompt_tokens = max(self.largest_prompt_tokens, self.prompt_tokens(body))
        reply = self.inner(request)
        if body.get("stream") and reply.kind == "answer" and reply.content is not None:
            text = reply.content
            size = max(1, len(text) // 20)
            return slow_stream([text[i:i + size] for i in range(0, len(text), size)] or [""], self.stream_every_s,
                               usage=reply.usage)
        return reply


def llama_cpp_about(n_ctx: int, model: str = "gemma-3-270m") -> dict:
    """What llama.cpp's server publishes about itself: GET /props and GET /v1/models."""
    return {"/props": {"default_generation_settings": {"n_ctx": n_ctx}, "total_slots": 1},
            "/v1/models": {"object": "list", "data": [{"id": model, "object": "model", "owned_by": "llamacpp",
                                                         "meta": {"n_ctx_train": 32768}}]}}
