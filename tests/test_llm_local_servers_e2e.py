"""#50: whole builds against a llama.cpp-style local server (real HTTP, real pytest, real uvicorn).

The scripted NotesModel (tests/notes_model.py) answers from what each prompt shows; LlamaCppLike
(tests/llama_cpp_like.py) serves it the way llama.cpp does: 500 on `json_schema`, a context
window that rejects prompts which do not fit with their max_tokens, slow streamed answers.
"""

from __future__ import annotations

import pytest
from fake_openai_server import FakeOpenAIServer
from llama_cpp_like import LlamaCppLike
from notes_model import REQUEST, NotesModel
from test_llm_notes_e2e import KEY, assert_complete_with_the_models_own_app

from harness.orchestration.pipeline import new_run
from harness.providers import formats, server_info
from harness.providers.budget import Budget, MeteredProvider
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.state.store import RunStore
from harness.utils.events import read_events

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def fresh_process_memory():
    formats.forget_all()
    server_info.forget_all()
    yield
    formats.forget_all()
    server_info.forget_all()


def build(tmp_path, server_model, **env):
    store = RunStore(tmp_path / "runs")
    with FakeOpenAIServer(responder=server_model) as server:
        environ = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url, "HARNESS_LLM_TIMEOUT_S": "30", **env}
        llm = MeteredProvider(EnvOpenAICompatibleProvider(environ=environ), Budget())
        ctx = new_run(store, REQUEST, llm, say=lambda line: None, audit=None)
        requests = list(server.requests)
    return ctx, requests, read_events(store.run_dir(ctx.run_id) / "events.log")


def test_llama_cpp_like_server_500_on_json_schema_builds_complete(tmp_path):
    """#50: the 500 was retried as "endpoint unavailable"; exit 75 at the first call."""
    notes = NotesModel()
    server = LlamaCppLike(notes)
    ctx, requests, evs = build(tmp_path, server)
    assert_complete_with_the_models_own_app(ctx, notes, evs)
    assert server.schema_500s == 1                                   # asked once, then remembered
    assert server.formats[0] == "json_schema" and "json_schema" not in server.formats[1:]
    assert server.formats[1] == "json_object+schema"     # the same request again, one rung down
    stated = [e["error"] for e in evs if e["stage"] == "llm" and e["status"] == "endpoint"]
    assert len(stated) == 1 and "refused response_format json_schema (HTTP 500)" in stated[0]


def context_events(evs) -> list[str]:
    return [e["error"] for e in evs if e["stage"] == "llm" and e["status"] == "endpoint"]


def test_a_12k_token_context_window_builds_complete(tmp_path):
    """#50: 8,192 max_tokens plus a builder prompt of up to 40,000 characters did not fit a 12k
    window; the 400 was answered with an even longer corrective prompt, then the fallback (and a
    model plan has none: BUILD FAILED). Here the API task's builder prompt carries store.py and
    search.py of ~10,000 characters each (~6.5k tokens in all)."""
    notes = NotesModel(comment_lines=140)
    server = LlamaCppLike(notes, n_ctx=12288, reject_json_schema=False)
    ctx, requests, evs = build(tmp_path, server)
    assert_complete_with_the_models_own_app(ctx, notes, evs)
    assert server.overflows == 1                      # the overflow answer tells the window: never again
    [i] = [n for n, r in enumerate(requests) if n and requests[n - 1].body["max_tokens"] == 8192
           and r.body["messages"] == requests[n - 1].body["messages"]]
    assert requests[i].body["max_tokens"] == 12288 // 3      # the same prompt, a fitted answer budget
    assert all(r.body["max_tokens"] == 12288 // 3 for r in requests[i:])
    assert server.largest_prompt_tokens > 6000         # the big prompt was sent whole, once it fitted
    [stated] = context_events(evs)
    assert "context window of 12288 tokens" in stated
    assert not [e for e in evs if e["status"] == "fallback"]


def test_an_8k_window_learned_at_the_builder_shrinks_its_prompt_to_interfaces_never_longer(tmp_path):
    """HARNESS_CONTEXT_TOKENS=16384 on a server whose window is 8192: the spec, plan and first tasks
    fit anyway; the API task's prompt does not. Its overflow answer tells the real window; with a
    fitted max_tokens the same prompt still does not fit, so it is rebuilt within the window
    (store.py and search.py as interfaces) and the model writes the app from the signatures shown."""
    notes = NotesModel(comment_lines=140)
    server = LlamaCppLike(notes, n_ctx=8192, reject_json_schema=False)
    ctx, requests, evs = build(tmp_path, server, HARNESS_CONTEXT_TOKENS="16384")
    assert_complete_with_the_models_own_app(ctx, notes, evs)
    api = [r.body for r in requests if '"id": "TASK-003"' in r.body["messages"][-1]["content"]]
    sizes = [len(b["messages"][-1]["content"]) for b in api]
    # where the first overflow lands depends on how long the earlier prompts are (the contract grew
    # this round): what must hold is that once the window is known every request fits it, with the
    # fitted max_tokens, and the API task's prompt ends shorter than any it sent before, never longer
    assert server.overflows >= 1 and api
    assert api[-1]["max_tokens"] == 8192 // 3
    assert sizes[-1] == min(sizes)
    shrunk = api[-1]["messages"][-1]["content"]
    assert '"dependency_interfaces"' in shrunk and "def create_note(" in shrunk and "Storage note 139" not in shrunk
    assert server.largest_prompt_tokens + 8192 // 3 <= 8192
    assert "context window of 8192 tokens" in context_events(evs)[-1]
    assert not [e for e in evs if e["status"] == "fallback"]
