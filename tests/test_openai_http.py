"""OpenAIHTTPClient and EnvOpenAICompatibleProvider over real HTTP against a local fake server."""

from __future__ import annotations

import socket
import time

import pytest
from fake_openai_server import FakeOpenAIServer, answer, error, fake_openai_server, hang, reset, stream  # noqa: F401
from pydantic import BaseModel

from harness.errors import ProviderConfigError, ProviderError, ProviderUnavailableError
from harness.providers.base import Usage
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.providers.mock import MockProvider
from harness.providers.openai_http import OpenAIHTTPClient, RequestRejectedError, strip_fences

KEY = "sk-test-SECRET-0123456789"
USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


class Item(BaseModel):
    name: str
    count: int


class Sleeps(list):
    """Records backoff delays instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def client(fake_openai_server, sleeps) -> OpenAIHTTPClient:
    return OpenAIHTTPClient(fake_openai_server.url, KEY, "test-model", timeout_s=0.5,
                            max_retries=2, backoff_s=0.01, sleep=sleeps)


def test_chat_posts_messages_and_returns_usage(fake_openai_server, client):
    fake_openai_server.push(answer("hello there", usage=USAGE))
    text, usage = client.chat("hi", system="be brief")
    assert text == "hello there"
    assert usage == Usage(11, 7, 18) and client.last_usage == usage
    assert client.calls == 1
    [req] = fake_openai_server.requests
    assert req.path == "/v1/chat/completions"
    assert req.headers["authorization"] == f"Bearer {KEY}"
    assert req.headers["content-type"] == "application/json"
    assert req.body == {"model": "test-model", "temperature": 0, "max_tokens": 8192, "stream": True,
                        "stream_options": {"include_usage": True}, "messages": [
        {"role": "system", "content": "be brief"},
        # the instructions again in the user message: some local chat templates drop the system role
        {"role": "user", "content": "Instructions (as in the system message): be brief\n\nhi"}]}


def test_chat_without_usage_reports_none_and_omits_empty_system(fake_openai_server, client):
    fake_openai_server.push(answer("ok"))
    assert client.chat("hi") == ("ok", None)
    assert fake_openai_server.requests[0].body["messages"] == [{"role": "user", "content": "hi"}]


def test_structured_valid_sends_json_schema(fake_openai_server, client):
    fake_openai_server.push(answer('```json\n{"name": "a", "count": 2}\n```', usage=USAGE))
    item, usage = client.chat_structured("make one", Item)
    assert item == Item(name="a", count=2) and usage == Usage(11, 7, 18)
    fmt = fake_openai_server.requests[0].body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"] == {"name": "Item", "schema": Item.model_json_schema(), "strict": False}


def test_structured_invalid_json_retries_with_the_error(fake_openai_server, client):
    fake_openai_server.push(answer("not json at all", usage=USAGE), answer('{"name": "b", "count": 3}', usage=USAGE))
    item, usage = client.chat_structured("make one", Item)
    assert item == Item(name="b", count=3)
    assert usage == Usage(22, 14, 36)
    retry = fake_openai_server.requests[1].body["messages"]
    assert retry[-2] == {"role": "assistant", "content": "not json at all"}
    assert retry[-1]["role"] == "user" and "no JSON object in the answer" in retry[-1]["content"]


def test_structured_schema_mismatch_twice_raises(fake_openai_server, client):
    fake_openai_server.push(answer('{"name": "a"}'), answer('{"name": "a", "count": "many"}'))
    with pytest.raises(ProviderError, match=r"model output did not match Item: count") as info:
        client.chat_structured("make one", Item)
    assert type(info.value) is ProviderError  # agents fall back; not a config/availability error
    assert "count: Field required" in fake_openai_server.requests[1].body["messages"][-1]["content"]
    assert len(fake_openai_server.requests) == 2


def test_json_schema_unsupported_falls_back_to_json_object(fake_openai_server, client):
    fake_openai_server.push(error(400, "response_format json_schema is not supported"),
                            answer('{"name": "c", "count": 1}'))
    item, _ = client.chat_structured("make one", Item)
    assert item.name == "c"
    assert [r.body["response_format"]["type"] for r in fake_openai_server.requests] == ["json_schema", "json_object"]


def test_every_format_unsupported_sends_no_response_format(fake_openai_server, client):
    fake_openai_server.push(error(400, "Unknown field response_format"), error(422, "schema: extra field"),
                            error(400, "invalid response_format"),
                            answer('{"name": "d", "count": 1}'), answer('{"name": "e", "count": 1}'))
    assert client.chat_structured("one", Item)[0].name == "d"
    assert client.chat_structured("two", Item)[0].name == "e"  # the downgrade is remembered
    sent = [r.body.get("response_format") for r in fake_openai_server.requests]
    assert [f and f["type"] for f in sent] == ["json_schema", "json_object", "json_object", None, None]
    assert sent[1]["schema"] == Item.model_json_schema() and "schema" not in sent[2]
    assert len(client.take_notes()) == 3 and client.take_notes() == []   # each step stated once


def test_other_400_is_not_treated_as_unsupported_format(fake_openai_server, client):
    fake_openai_server.push(error(400, f"temperature must be at most 2 for key {KEY}"))
    with pytest.raises(RequestRejectedError, match="HTTP 400.*temperature must be") as info:
        client.chat_structured("one", Item)
    assert KEY not in str(info.value) and KEY not in info.value.body
    assert len(fake_openai_server.requests) == 1


def test_stream_yields_deltas_until_done(fake_openai_server, client):
    fake_openai_server.push(stream(["Hel", "lo", "!"], usage=USAGE, after_done=["IGNORED"]))
    assert list(client.chat_stream("hi")) == ["Hel", "lo", "!"]
    assert client.last_usage == Usage(11, 7, 18)
    body = fake_openai_server.requests[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


def test_429_honours_retry_after(fake_openai_server, client, sleeps):
    fake_openai_server.push(error(429, "slow down", retry_after=2), answer("ok"))
    assert client.chat("hi")[0] == "ok"
    assert sleeps == [2.0]
    assert client.calls == 2


def test_retry_after_is_capped(fake_openai_server, client, sleeps):
    fake_openai_server.push(error(503, retry_after=3600), answer("ok"))
    client.chat("hi")
    assert sleeps == [30.0]


def test_503_until_retries_exhausted_raises_unavailable(fake_openai_server, client, sleeps):
    fake_openai_server.push(*[error(503, "overloaded")] * 4)
    with pytest.raises(ProviderUnavailableError) as info:
        client.chat("hi")
    assert str(info.value) == (f"LLM endpoint {fake_openai_server.url} unavailable after 3 attempts: "
                               f'HTTP 503: {{"error": {{"message": "overloaded", "code": 503}}}}')
    assert len(fake_openai_server.requests) == 3 and fake_openai_server.pending == 1
    assert sleeps == [0.01, 0.02]  # exponential backoff between attempts, none after the last


def test_silence_past_the_timeout_is_not_retried_and_names_the_setting(fake_openai_server, client, sleeps):
    """#50: a one-request-at-a-time local server is still working on an abandoned request; a retry
    only queued a duplicate behind it (a 64 s answer was sent 3 times, exit 75 after 248 s)."""
    fake_openai_server.push(hang(2.0), answer("never asked"))
    started = time.monotonic()
    with pytest.raises(ProviderUnavailableError, match="sent nothing for 0.5 s.*raise HARNESS_LLM_TIMEOUT_S"):
        client.chat("hi")
    assert time.monotonic() - started < 1.5  # the 0.5 s timeout fired; the 2 s hang was not waited out
    assert len(fake_openai_server.requests) == 1 and sleeps == []


def test_connection_reset_is_retried(fake_openai_server, client):
    fake_openai_server.push(reset(), answer("ok"))
    assert client.chat("hi")[0] == "ok"
    assert client.calls == 2


def test_connection_refused_raises_unavailable(sleeps):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed when the block ends: nothing listens there
    client = OpenAIHTTPClient(f"http://127.0.0.1:{port}/v1", KEY, "m", timeout_s=0.5, max_retries=1, sleep=sleeps)
    with pytest.raises(ProviderUnavailableError, match="unavailable after 2 attempts: .*ConnectionRefused"):
        client.chat("hi")
    assert client.calls == 2


def test_401_fails_fast_without_leaking_the_key(sleeps):
    with FakeOpenAIServer(api_key="sk-the-right-one") as server:
        client = OpenAIHTTPClient(server.url, KEY, "m", timeout_s=0.5, sleep=sleeps)
        with pytest.raises(ProviderConfigError) as info:
            client.chat("hi")
    assert str(info.value) == "LLM endpoint rejected the API key (HTTP 401): check OPENAI_API_KEY"
    assert len(server.requests) == 1 and sleeps == []
    assert KEY in server.requests[0].headers["authorization"]  # the server did see (and echo) it


def test_404_names_base_url_and_model(fake_openai_server, sleeps):
    client = OpenAIHTTPClient(fake_openai_server.url + "/wrong", KEY, "no-such-model", sleep=sleeps)
    with pytest.raises(ProviderConfigError, match="not found") as info:
        client.chat("hi")
    assert fake_openai_server.url + "/wrong" in str(info.value)
    assert "OPENAI_MODEL=no-such-model" in str(info.value)
    assert len(fake_openai_server.requests) == 1


@pytest.mark.parametrize("reply, exc_type", [
    (error(500, f"internal error, key={KEY}"), ProviderUnavailableError),
    (error(422, f"bad request from Bearer {KEY}"), RequestRejectedError),
    (error(500, body=f"plain text Authorization: Bearer {KEY}"), ProviderUnavailableError),
])
def test_key_never_appears_in_errors_or_repr(fake_openai_server, sleeps, reply, exc_type):
    fake_openai_server.push(reply)
    client = OpenAIHTTPClient(fake_openai_server.url, KEY, "m", max_retries=0, sleep=sleeps)
    with pytest.raises(exc_type) as info:
        client.chat("hi")
    assert "***" in str(info.value)
    assert KEY not in str(info.value) and KEY not in repr(info.value) and KEY not in repr(client)


def test_strip_fences():
    assert strip_fences('```json\n{"a": 1}\n```') == '{"a": 1}'
    assert strip_fences('```\n[1]\n```\n') == "[1]"
    assert strip_fences(' {"a": 1} ') == '{"a": 1}'


def _env(server: FakeOpenAIServer, **extra: str) -> dict[str, str]:
    return {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url, "OPENAI_MODEL": "env-model",
            "HARNESS_LLM_MAX_RETRIES": "0", **extra}


def test_env_provider_with_key_goes_over_http(fake_openai_server):
    fake_openai_server.push(answer("live", usage=USAGE), answer('{"name": "x", "count": 1}'),
                            stream(["a", "b"], usage=USAGE))
    provider = EnvOpenAICompatibleProvider(environ=_env(fake_openai_server))
    assert provider.is_live and KEY not in repr(provider)
    assert provider.generate("hi") == "live" and provider.last_usage == Usage(11, 7, 18)
    assert provider.generate_structured("one", Item) == Item(name="x", count=1)
    assert provider.last_usage is None
    assert "".join(provider.stream("s")) == "ab" and provider.last_usage == Usage(11, 7, 18)
    assert [r.body["model"] for r in fake_openai_server.requests] == ["env-model"] * 3
    assert provider.client.calls == 3


def test_env_provider_reads_retry_and_timeout_settings(fake_openai_server):
    fake_openai_server.push(error(503), answer("never reached"))
    provider = EnvOpenAICompatibleProvider(environ=_env(fake_openai_server, HARNESS_LLM_TIMEOUT_S="0.5"))
    assert provider.client.timeout_s == 0.5 and provider.client.max_retries == 0
    with pytest.raises(ProviderUnavailableError, match="after 1 attempts"):
        provider.generate("hi")


@pytest.mark.parametrize("name, value", [("HARNESS_LLM_TIMEOUT_S", "soon"), ("HARNESS_LLM_TIMEOUT_S", "0"),
                                         ("HARNESS_LLM_MAX_RETRIES", "-1"), ("HARNESS_LLM_MAX_RETRIES", "2.5")])
def test_env_provider_rejects_bad_settings_naming_the_variable(fake_openai_server, name, value):
    with pytest.raises(ProviderConfigError, match=name):
        EnvOpenAICompatibleProvider(environ=_env(fake_openai_server, **{name: value}))


def test_env_provider_without_key_uses_mock(fake_openai_server):
    provider = EnvOpenAICompatibleProvider(environ={"OPENAI_BASE_URL": fake_openai_server.url,
                                                    "HARNESS_LLM_TIMEOUT_S": "junk is ignored offline"})
    assert not provider.is_live and provider.client is None
    assert isinstance(provider._delegate, MockProvider)
    assert provider.generate("hi") == MockProvider().generate("hi")
    assert fake_openai_server.requests == []
