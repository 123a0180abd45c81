"""EnvOpenAICompatibleProvider: OpenAI-compatible chat completions configured from the environment.

Without OPENAI_API_KEY it delegates to MockProvider. The HTTP path is implemented in
`harness/providers/openai_http.py` (stdlib urllib only). Settings: OPENAI_BASE_URL, OPENAI_MODEL,
HARNESS_LLM_TIMEOUT_S (the longest silence of a streamed answer, default 60),
HARNESS_LLM_MAX_ANSWER_S (one whole answer, default 1800), HARNESS_LLM_MAX_RETRIES (default 3),
HARNESS_LLM_MAX_OUTPUT_TOKENS (max_tokens of each request, default 8192), HARNESS_CONTEXT_TOKENS
(the model's context window; else the server's own figure, else learned from an overflow answer),
HARNESS_LLM_MAX_RESPONSE_BYTES (default 8 MiB), HARNESS_LLM_STREAM=0 (ask for whole answers).
Before its first call the provider asks the server about itself once (server_info.py): a
llama.cpp server starts the format ladder at json_object+schema and gives its context window.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping

from harness.utils.env_numbers import env_number
from harness.errors import ProviderConfigError
from harness.providers.base import LLMProvider, M
from harness.providers.mock import MockProvider
from harness.providers import formats
from harness.providers.openai_http import (DEFAULT_MAX_ANSWER_S, DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_MAX_RETRIES,
                                           DEFAULT_TIMEOUT_S, OpenAIHTTPClient)
from harness.providers.server_info import server_info
from harness.providers.transport import MAX_RESPONSE_BYTES

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "gpt-4o-mini"


class EnvOpenAICompatibleProvider(LLMProvider):
    name = "openai-compatible"

    def __init__(self, environ: Mapping[str, str] | None = None):
        env = os.environ if environ is None else environ
        self._api_key = env.get("OPENAI_API_KEY", "").strip()
        self.base_url = (env.get("OPENAI_BASE_URL", "").strip() or DEFAULT_BASE_URL).rstrip("/")
        self.model = env.get("OPENAI_MODEL", "").strip() or DEFAULT_MODEL
        self.is_live = bool(self._api_key)
        self._delegate = None if self.is_live else MockProvider()
        self.client: OpenAIHTTPClient | None = None
        self._context_setting: int | None = None
        self._asked_server = False
        if self.is_live:
            self.client = OpenAIHTTPClient(
                self.base_url, self._api_key, self.model,
                timeout_s=_env_number(env, "HARNESS_LLM_TIMEOUT_S", DEFAULT_TIMEOUT_S, float),
                max_answer_s=_env_number(env, "HARNESS_LLM_MAX_ANSWER_S", DEFAULT_MAX_ANSWER_S, float),
                max_retries=_env_number(env, "HARNESS_LLM_MAX_RETRIES", DEFAULT_MAX_RETRIES, int),
                max_tokens=_env_number(env, "HARNESS_LLM_MAX_OUTPUT_TOKENS", DEFAULT_MAX_OUTPUT_TOKENS, int),
                max_response_bytes=_env_number(env, "HARNESS_LLM_MAX_RESPONSE_BYTES", MAX_RESPONSE_BYTES, int),
                stream=env.get("HARNESS_LLM_STREAM", "1").strip().lower() not in ("0", "false", "no", "off"))
            self._context_setting = _env_number(env, "HARNESS_CONTEXT_TOKENS", None, int)
            if self._context_setting is not None and self._context_setting < 1024:
                raise ProviderConfigError(f"HARNESS_CONTEXT_TOKENS={self._context_setting} is too small (at least 1024)")
            self.client.context_tokens = self._context_setting

    def __repr__(self) -> str:  # never show the key
        return f"EnvOpenAICompatibleProvider(base_url={self.base_url!r}, model={self.model!r}, live={self.is_live})"

    @property
    def context_tokens(self) -> int | None:
        """The model's context window in tokens, once known (None: unknown, no fitting)."""
        if self.client is None:
            return None
        self._ask_server()
        return self.client.context_tokens

    def take_notes(self) -> list[str]:
        return self.client.take_notes() if self.client is not None else []

    def _ask_server(self) -> None:
        """Once: the server's family (a known family starts lower on the format ladder) and its
        context window (HARNESS_CONTEXT_TOKENS wins over the server's figure)."""
        if self._asked_server or self.client is None:
            return
        self._asked_server = True
        info = server_info(self.base_url, self.model, self._api_key)
        start = formats.FAMILY_START.get(info.family)
        key = formats.endpoint_key(self.base_url, self.model)
        if start and formats.remembered(key) is None and self.client.format_rung == formats.LADDER[0]:
            self.client.set_rung(start, f"{self.base_url} is a {info.family} server: asking in "
                                        f"{formats.describe(start)}")
        if self._context_setting is None and info.context_tokens:
            self.client.context_tokens = info.context_tokens
            self.client.notes.append(f"context window {info.context_tokens} tokens (from the server's "
                                     f"{info.source}); prompts and max_tokens fitted to it")
        elif self._context_setting is not None:
            self.client.notes.append(f"context window {self._context_setting} tokens (HARNESS_CONTEXT_TOKENS); "
                                     f"prompts and max_tokens fitted to it")

    def generate(self, prompt: str, system: str = "") -> str:
        if self._delegate:
            return self._delegate.generate(prompt, system)
        self._ask_server()
        try:
            text, _ = self.client.chat(prompt, system)
        finally:  # usage of failed attempts still counts against budgets
            self.last_usage = self.client.last_usage
        return text

    def generate_structured(self, prompt: str, schema: type[M], system: str = "") -> M:
        if self._delegate:
            return self._delegate.generate_structured(prompt, schema, system)
        self._ask_server()
        try:
            obj, _ = self.client.chat_structured(prompt, schema, system)
        finally:
            self.last_usage = self.client.last_usage
        return obj

    def generate_json(self, prompt: str, system: str = "", schema=None) -> str:
        if self._delegate:
            return self._delegate.generate_json(prompt, system, schema)
        self._ask_server()
        try:
            text, _ = self.client.chat_json(prompt, system, schema)
        finally:
            self.last_usage = self.client.last_usage
        return text

    def stream(self, prompt: str, system: str = "") -> Iterator[str]:
        if self._delegate:
            yield from self._delegate.stream(prompt, system)
            return
        self.last_usage = None
        self._ask_server()
        try:
            yield from self.client.chat_stream(prompt, system)
        finally:
            self.last_usage = self.client.last_usage


def _env_number(env: Mapping[str, str], name: str, default, kind):
    """A non-negative int (zero allowed: no retries) or a positive float from `env[name]`."""
    return env_number(env, name, default, kind, error=ProviderConfigError, allow_zero=kind is int)
