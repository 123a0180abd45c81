"""#50/#49: the LLM client against local-server behaviour, over real HTTP to a local fake server:
format negotiation (llama.cpp's 500 on json_schema), the server's own context figure, context
overflow answers, slow streamed answers waited for once, and bounded answers (size, nesting)."""

from __future__ import annotations

import pytest
from fake_openai_server import FakeOpenAIServer, answer, error, flood, slow_stream
from llama_cpp_like import SCHEMA_500, LlamaCppLike, llama_cpp_about
from pydantic import BaseModel

from harness.agents.ask import ask
from harness.errors import ProviderError, ProviderUnavailableError
from harness.providers import formats, server_info
from harness.providers.context_window import ContextOverflowError, overflow_window
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.providers.openai_http import OpenAIHTTPClient

KEY = "sk-local-test-0123456789"


class Item(BaseModel):
    name: str
    count: int


@pytest.fixture(autouse=True)
def fresh_process_memory():
    """Each test is a new process as far as remembered formats and server facts go."""
    formats.forget_all()
    server_info.forget_all()
    yield
    formats.forget_all()
    server_info.forget_all()


def client(server: FakeOpenAIServer, **kw) -> OpenAIHTTPClient:
    return OpenAIHTTPClient(server.url, KEY, "m", timeout_s=kw.pop("timeout_s", 2.0), max_retries=2,
                            backoff_s=0.01, sleep=lambda s: None, **kw)


def test_llama_cpp_500_on_json_schema_steps_down_to_json_object_with_schema_and_remembers_it():
    """#50: the 500 was retried as "endpoint unavailable" and the run exited 75 at its first call."""
    with FakeOpenAIServer(responder=LlamaCppLike(lambda r: answer('{"name": "a", "count": 1}'))) as server:
        first = client(server)
        assert first.chat_structured("one", Item)[0].name == "a"
        second = client(server)               # a later client of the same endpoint (same process)
        assert second.chat_structured("two", Item)[0].name == "a"
        sent = [r.body.get("response_format") for r in server.requests]
    assert [f["type"] for f in sent] == ["json_schema", "json_object", "json_object"]
    assert sent[1]["schema"] == Item.model_json_schema()
    [note] = first.take_notes()
    assert "refused response_format json_schema (HTTP 500)" in note and "json_object with the schema" in note
    assert second.take_notes() == []          # stated once


def test_a_500_that_does_not_name_the_format_is_still_retried_as_unavailable():
    with FakeOpenAIServer([error(500, "out of memory")] * 3) as server:
        with pytest.raises(ProviderUnavailableError, match="unavailable after 3 attempts"):
            client(server).chat_structured("one", Item)
        assert [r.body["response_format"]["type"] for r in server.requests] == ["json_schema"] * 3


def test_known_llama_cpp_server_is_asked_in_json_object_with_schema_and_its_n_ctx_fits_max_tokens():
    """The server's own figures: /props n_ctx and owned_by llamacpp; no json_schema request is wasted."""
    model = LlamaCppLike(lambda r: answer('{"name": "b", "count": 2}'))
    with FakeOpenAIServer(responder=model, about=llama_cpp_about(12288)) as server:
        provider = EnvOpenAICompatibleProvider(environ={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url})
        assert provider.generate_structured("one", Item).count == 2
        assert provider.context_tokens == 12288
        [req] = server.requests
        notes = provider.take_notes()
    assert model.formats == ["json_object+schema"] and model.schema_500s == 0
    assert req.body["max_tokens"] == 12288 // 3
    assert any("llama.cpp server" in n for n in notes) and any("12288 tokens" in n and "/props" in n for n in notes)


def test_context_setting_wins_over_the_servers_figure():
    with FakeOpenAIServer([answer('{"name": "c", "count": 3}')], about=llama_cpp_about(32768)) as server:
        provider = EnvOpenAICompatibleProvider(environ={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url,
                                                        "HARNESS_CONTEXT_TOKENS": "8192"})
        provider.generate_structured("one", Item)
        assert provider.context_tokens == 8192 and server.requests[0].body["max_tokens"] == 8192 // 3


@pytest.mark.parametrize("text,window", [
    ("Requested tokens (14000) exceed context window of 12288", 12288),
    ("This model's maximum context length is 4096 tokens. However, you requested 5000 tokens", 4096),
    ('{"message": "the request exceeds the available context size", "n_ctx": 8192}', 8192),
    ("prompt is too long", 0),
    ("temperature must be at most 2", None),
])
def test_overflow_answers_of_the_server_families_are_recognised(text, window):
    assert overflow_window(400, text) == window


def test_context_overflow_learns_the_window_and_retries_once_with_a_fitted_max_tokens_never_longer():
    """llama.cpp counts max_tokens into the window: 8192 + a short prompt does not fit 12k."""
    model = LlamaCppLike(lambda r: answer('{"name": "d", "count": 4}'), n_ctx=12288, reject_json_schema=False)
    with FakeOpenAIServer(responder=model) as server:
        c = client(server)
        assert c.chat_structured("x" * 20000, Item)[0].name == "d"
        bodies = [r.body for r in server.requests]
    assert [b["max_tokens"] for b in bodies] == [8192, 4096]
    assert bodies[0]["messages"] == bodies[1]["messages"]          # the same prompt, not a longer one
    assert c.context_tokens == 12288 and model.overflows == 1


def test_prompt_over_the_window_is_shrunk_by_the_agent_never_sent_longer():
    model = LlamaCppLike(lambda r: answer('{"name": "e", "count": 5}'), n_ctx=4096, reject_json_schema=False)
    asked: list[int] = []

    def shrink(limit: int) -> str:
        asked.append(limit)
        return "y" * limit

    with FakeOpenAIServer(responder=model) as server:
        provider = EnvOpenAICompatibleProvider(environ={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url})
        got = ask(provider, "builder", "y" * 30000, lambda raw: Item.model_validate_json(raw), shrink=shrink)
        sizes = [len(r.body["messages"][-1]["content"]) for r in server.requests]
    assert got.value.name == "e" and got.source == "llm"
    assert asked and asked[0] < 30000
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] < sizes[0]   # every retry shorter


def test_overflow_without_a_way_to_shrink_is_unusable_not_retried_longer():
    model = LlamaCppLike(lambda r: answer("{}"), n_ctx=2048, reject_json_schema=False)
    with FakeOpenAIServer(responder=model) as server:
        provider = EnvOpenAICompatibleProvider(environ={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url})
        got = ask(provider, "spec_agent", "z" * 30000, lambda raw: Item.model_validate_json(raw),
                  fallback=lambda: Item(name="rules", count=0), fallback_tool="rules")
        sizes = [len(r.body["messages"][-1]["content"]) for r in server.requests]
    assert got.source == "rules" and "context window of 2048" in got.reason
    assert max(sizes) == sizes[0]                 # no corrective retry carrying the old prompt and more


def test_slow_streamed_answer_is_waited_for_once_not_retried():
    """#50: a 64 s answer against a 60 s deadline was sent 3 times (exit 75 after 248 s). Scaled down:
    an answer streamed over ~1.5 s, with a 0.5 s deadline per chunk, is one request that succeeds."""
    chunks = ['{"name": ', '"slow", ', '"count": ', "64}"] * 1
    pieces = [c for c in "".join(chunks)]
    with FakeOpenAIServer([slow_stream(pieces, every_s=0.07)]) as server:
        c = client(server, timeout_s=0.5)
        progress: list[int] = []
        c.on_progress = progress.append
        item, _ = c.chat_structured("slow one", Item)
        assert len(server.requests) == 1
    assert item == Item(name="slow", count=64)
    assert progress[-1] == len("".join(chunks)) and progress == sorted(progress)


def test_a_stalled_stream_is_not_retried_and_names_the_setting():
    with FakeOpenAIServer([slow_stream(['{"name"', ': "x"}'], every_s=1.5), answer("never asked")]) as server:
        with pytest.raises(ProviderUnavailableError, match="HARNESS_LLM_TIMEOUT_S"):
            client(server, timeout_s=0.4).chat("hi")
        assert len(server.requests) == 1


def test_a_200_mb_answer_is_refused_in_one_line_without_reading_it_all():
    """#49: a 200 MB body was buffered whole (~1 GB peak)."""
    with FakeOpenAIServer([flood(200 * 1024 * 1024)]) as server:
        with pytest.raises(ProviderError) as info:
            client(server, max_response_bytes=1024 * 1024).chat("hi")
        server.stop()
        sent = server.flooded
    message = str(info.value)
    assert "larger than 1048576 bytes" in message and "\n" not in message
    assert sent < 50 * 1024 * 1024        # it stopped reading long before the end


def test_declared_content_length_over_the_cap_is_refused_before_reading():
    big = '{"choices": [{"message": {"content": "' + "a" * 3_000_000 + '"}}]}'
    with FakeOpenAIServer([answer("a" * 3_000_000)]) as server:
        with pytest.raises(ProviderError, match="larger than 2097152 bytes"):
            client(server, max_response_bytes=2 * 1024 * 1024, stream=False).chat("hi")
    assert len(big) > 2 * 1024 * 1024


@pytest.mark.parametrize("where", ["body", "answer"])
def test_deeply_nested_json_is_refused_not_a_recursion_error(where):
    """#49: a deeply nested JSON body crashed with a RecursionError traceback."""
    deep = "[" * 100_000 + "]" * 100_000
    from fake_openai_server import Reply

    reply = Reply("error", status=200, body=deep) if where == "body" else answer(deep)
    with FakeOpenAIServer([reply, answer(deep)]) as server:
        with pytest.raises(ProviderError, match="nested deeper than 200 levels"):
            client(server, stream=False).chat_structured("hi", Item)


def test_schema_500_message_names_the_format():
    assert formats.rejects_format(500, SCHEMA_500)


def test_a_streamed_answer_shows_its_progress_on_the_live_line(tmp_path):
    """#50: a slow local model looked hung; the live line now says it is answering and how far it got."""
    import io

    from harness.progress import Progress
    from harness.providers import activity

    seen: list[str] = []
    with FakeOpenAIServer([slow_stream(list('{"name": "a", "count": 1}'), every_s=0.02)]) as server:
        c = client(server)
        c.on_progress = lambda chars: seen.append(activity.line())
        c.chat_structured("hi", Item)
    assert seen[-1].startswith("model answering ") and seen[-1].endswith(", 25 chars")
    assert activity.line() == ""                      # nothing under way after the answer

    now = [100.0]
    out = io.StringIO()
    progress = Progress(tmp_path / "events.log", out, live=True, say=lambda line: None, clock=lambda: now[0])
    activity.begin(clock=lambda: now[0])
    activity.progress(1840)
    now[0] += 12.3
    progress.poll()
    activity.end()
    assert out.getvalue().endswith("\r\x1b[K  model answering 12.3s, 1,840 chars")


def test_the_builder_of_a_task_is_shown_the_runtime_probes_of_its_requirements():
    """#50: the builder never saw the plan's probes, so it could not know the runtime check would
    call POST /notes with a given body and expect 201."""
    import json

    from notes_model import NotesModel

    from harness.agents.builder import build_context
    from harness.models.spec import AppSpec
    from harness.models.tasks import Plan

    model = NotesModel()
    spec = AppSpec.model_validate_json(model.spec("explicit_non_goals feature = ", ""))
    plan = Plan.model_validate({**json.loads(model.plan('"probes" "id": "REQ-001" "id": "REQ-002" "id": "REQ-003"', "")),
                                "source": "llm"})
    by_id = {t.id: t for t in plan.tasks}
    api = build_context(by_id["TASK-003"], spec, [], plan)
    assert [(p["method"], p["path"], p["expect_status"]) for p in api["runtime_probes"]] == [
        ("POST", "/notes", 201), ("GET", "/notes/{note_id}", 200), ("GET", "/notes?tag=probe", 200),
        ("GET", "/search?q=needle", 200)]
    assert api["runtime_probes"][0]["body"]["title"] == "Probe" and api["runtime_probes"][0]["capture"] == {"note_id": "id"}
    markdown = build_context(by_id["TASK-002"], spec, [], plan)     # REQ-001 and REQ-003 only
    assert {p["requirement"] for p in markdown["runtime_probes"]} == {"REQ-001", "REQ-003"}


def test_a_server_that_refuses_streaming_gets_whole_answers_from_then_on():
    """Streaming is the default now; a server that rejects `stream`/`stream_options` is asked again
    without them (once, stated once) instead of failing every call."""
    with FakeOpenAIServer([error(400, "Unrecognized request argument supplied: stream_options"),
                           answer('{"name": "w", "count": 1}'), answer('{"name": "x", "count": 2}')]) as server:
        c = client(server)
        assert c.chat_structured("one", Item)[0].name == "w"
        assert c.chat_structured("two", Item)[0].name == "x"
        streamed = ["stream" in r.body for r in server.requests]
    assert streamed == [True, False, False]
    [note] = c.take_notes()
    assert "refused a streamed request (HTTP 400)" in note


def test_the_repair_context_is_fitted_to_a_small_context_window():
    from harness.agents.repair_context import CONTEXT_CAP, repair_cap

    assert repair_cap(None) == CONTEXT_CAP and repair_cap(128_000) == CONTEXT_CAP
    assert repair_cap(8192) < CONTEXT_CAP and (repair_cap(8192) / 3 + 8192 // 3 + 600) <= 8192
