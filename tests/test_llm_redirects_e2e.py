"""#50: a correct URL shortener ended BUILD FAILED — the probe client followed the redirect, so a
declared 307 could never pass. Whole builds over real HTTP with the scripted shortener model."""

from __future__ import annotations

import json

import pytest
from fake_openai_server import FakeOpenAIServer
from shortener_model import REQUEST, TARGET, ShortenerModel

from harness.models.enums import RunStatus
from harness.orchestration.pipeline import new_run
from harness.providers.budget import Budget, MeteredProvider
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.state.store import RunStore
from harness.utils.events import read_events

pytestmark = pytest.mark.slow
KEY = "sk-shortener-test-key"


def build(tmp_path, model):
    store = RunStore(tmp_path / "runs")
    with FakeOpenAIServer(responder=model) as server:
        llm = MeteredProvider(EnvOpenAICompatibleProvider(
            environ={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url, "HARNESS_LLM_TIMEOUT_S": "30"}), Budget())
        ctx = new_run(store, REQUEST, llm, say=lambda line: None, audit=None)
    return ctx, read_events(store.run_dir(ctx.run_id) / "events.log")


def failures(evs):
    return [(e["stage"], e["task_id"], e["error"]) for e in evs if e["status"] in ("FAIL", "fallback", "ESCALATE")]


def test_url_shortener_with_a_307_probe_ends_build_complete(tmp_path):
    model = ShortenerModel()
    ctx, evs = build(tmp_path, model)
    assert ctx.state.status == RunStatus.PASS, (ctx.state.runtime, failures(evs))
    checks = {c.name: c for c in ctx.state.runtime.checks}
    follow = checks["round trip: follow the short code"]
    assert follow.ok and "→ 307" in follow.detail and f"Location: {TARGET}" in follow.detail
    assert model.calls == ["spec", "plan", "build", "review"] and model.guessed == []


def test_a_runtime_failure_is_repaired_like_a_test_failure(tmp_path):
    """#50: a runtime failure was final. Here the first build redirects with 302 and its own test
    accepts any redirect, so every test passes while the plan's 307 probe fails; the repair agent
    is shown the failed probe (status and Location) and fixes src/main.py; the runtime check passes."""
    model = ShortenerModel(wrong_status=True)
    ctx, evs = build(tmp_path, model)
    assert ctx.state.status == RunStatus.PASS, (ctx.state.runtime, failures(evs))
    assert model.calls == ["spec", "plan", "build", "repair", "review"] and model.guessed == []
    [prompt] = model.repair_prompts
    context = json.loads(prompt[prompt.index("{"):])
    failing = json.dumps(context["failing"], ensure_ascii=False)
    assert context["failing"]["command"] == "runtime check" and context["failure_type"] == "TEST_FAILURE"
    assert "round trip: follow the short code" in failing and "(expected 307)" in failing and "→ 302" in failing
    assert "REDIRECT_STATUS = 302" in context["editable_files"]["src/main.py"]     # the file to fix
    assert ctx.state.repair_attempts == {"TASK-001": 1}
    assert "REDIRECT_STATUS = 307" in (ctx.workspace / "src/main.py").read_text()
    runtimes = [e["status"] for e in evs if e["stage"] == "runtime"]
    assert runtimes == ["FAIL", "PASS"]
    [attempt] = [e for e in evs if e["stage"] == "repair" and e["status"].startswith("attempt")]
    assert attempt["detail"]["runtime"] is True and attempt["detail"]["files_changed"] == ["src/main.py"]
