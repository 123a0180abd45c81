"""LLM providers: the LLMProvider interface, MockProvider and EnvOpenAICompatibleProvider."""

from harness.providers.base import LLMProvider, Usage
from harness.providers.mock import MockProvider

__all__ = ["LLMProvider", "MockProvider", "Usage", "get_provider"]


def get_provider(environ=None) -> LLMProvider:
    """The provider the environment asks for: OpenAI-compatible with a key, else MockProvider."""
    from harness.providers.env import EnvOpenAICompatibleProvider

    from harness.sandbox.secrets import environ_with_secrets

    provider = EnvOpenAICompatibleProvider(environ=environ_with_secrets() if environ is None else environ)
    return provider if provider.is_live else MockProvider()
