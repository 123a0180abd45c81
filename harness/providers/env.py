"""EnvOpenAICompatibleProvider: OpenAI-compatible chat completions configured from the environment.

Without OPENAI_API_KEY it delegates to MockProvider. The HTTP path is implemented in
`harness/providers/openai_http.py` (stdlib urllib only). Settings: OPENAI_BASE_URL, OPENAI_MODEL,
HARNESS_LLM_TIMEOUT_S (per-request timeout, default 60), HARNESS_LLM_MAX_RETRIES (default 3),
HARNESS_LLM_MAX_OUTPUT_TOKENS (max_tokens of each request, default 8192).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping

from harness.utils.env_numbers import env_number
from harness.errors import ProviderConfigError
from harness.providers.base import LLMProvider, M
from harness.providers.mock import MockProvider
from harness.providers.openai_http import (DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S,
                                           OpenAIHTTPClient)

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
        if self.is_live:
            self.client = OpenAIHTTPClient(
                self.base_url, self._api_key, self.model,
                timeout_s=_env_number(env, "HARNESS_LLM_TIMEOUT_S", DEFAULT_TIMEOUT_S, float),
                max_retries=_env_number(env, "HARNESS_LLM_MAX_RETRIES", DEFAULT_MAX_RETRIES, int),
                max_tokens=_env_number(env, "HARNESS_LLM_MAX_OUTPUT_TOKENS", DEFAULT_MAX_OUTPUT_TOKENS, int))

    def __repr__(self) -> str:  # never show the key
        return f"EnvOpenAICompatibleProvider(base_url={self.base_url!r}, model={self.model!r}, live={self.is_live})"

    def generate(self, prompt: str, system: str = "") -> str:
        if self._delegate:
            return self._delegate.generate(prompt, system)
        try:
            text, _ = self.client.chat(prompt, system)
        finally:  # usage of failed attempts still counts against budgets
            self.last_usage = self.client.last_usage
        return text

    def generate_structured(self, prompt: str, schema: type[M], system: str = "") -> M:
        if self._delegate:
            return self._delegate.generate_structured(prompt, schema, system)
        try:
            obj, _ = self.client.chat_structured(prompt, schema, system)
        finally:
            self.last_usage = self.client.last_usage
        return obj

    def generate_json(self, prompt: str, system: str = "", schema=None) -> str:
        if self._delegate:
            return self._delegate.generate_json(prompt, system, schema)
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
        try:
            yield from self.client.chat_stream(prompt, system)
        finally:
            self.last_usage = self.client.last_usage


def _env_number(env: Mapping[str, str], name: str, default, kind):
    """A non-negative int (zero allowed: no retries) or a positive float from `env[name]`."""
    return env_number(env, name, default, kind, error=ProviderConfigError, allow_zero=kind is int)
