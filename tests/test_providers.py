"""MockProvider determinism and the offline delegation of EnvOpenAICompatibleProvider (SPEC M1)."""

import subprocess
import sys

import pytest

from harness.errors import ProviderError
from harness.models import Plan
from harness.providers import get_provider
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.providers.mock import MockProvider

SNIPPET = "from harness.providers.mock import MockProvider; print(MockProvider().generate('build a todo app', 'sys'))"


def test_mock_is_deterministic_within_and_across_processes():
    here = MockProvider().generate("build a todo app", "sys")
    assert here == MockProvider().generate("build a todo app", "sys")
    other = subprocess.run([sys.executable, "-c", SNIPPET], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": "123", "PATH": "/usr/bin:/bin"}).stdout.strip()
    assert other == here
    assert MockProvider().generate("another prompt") != here


def test_unscripted_mock_never_pretends_to_be_a_model():
    with pytest.raises(ProviderError):
        MockProvider().generate_structured("spec please", Plan)


def test_scripted_mock_answers_in_order_and_validates():
    llm = MockProvider(script=['{"tasks": []}', "not json"])
    assert llm.generate_structured("a", Plan).tasks == []
    with pytest.raises(ProviderError):
        llm.generate_structured("b", Plan)
    with pytest.raises(ProviderError, match="exhausted"):
        llm.generate("c")


def test_stream_yields_the_same_text_in_chunks():
    llm = MockProvider()
    assert "".join(llm.stream("hello")) == llm.generate("hello")


def test_env_provider_without_key_delegates_to_mock():
    provider = EnvOpenAICompatibleProvider(environ={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert not provider.is_live
    assert provider.generate("x") == MockProvider().generate("x")
    assert isinstance(get_provider(environ={}), MockProvider)


def test_env_provider_with_key_is_live_and_hides_the_key():
    provider = EnvOpenAICompatibleProvider(environ={"OPENAI_API_KEY": "sk-secret-123", "OPENAI_MODEL": "m"})
    assert provider.is_live and provider.model == "m"
    assert "sk-secret-123" not in repr(provider)
