"""Run budgets and model-call accounting: Budget, MeteredProvider, and their wiring into a run."""

from __future__ import annotations

import pytest
from fake_openai_server import FakeOpenAIServer, answer, error, fake_openai_server, stream  # noqa: F401

from harness.agents.planner import Planner
from harness.agents.reviewer import Reviewer
from harness.agents.spec_agent import postprocess
from harness.offline.spec.rules import rule_based_spec
from harness.cli import build_parser
from harness.errors import BudgetExceededError, InputError, ProviderError
from harness.models.run import RunState
from harness.orchestration.context import RunContext
from harness.orchestration.pipeline import plan_stage
from harness.providers.base import Usage
from harness.providers.budget import (
    DEFAULT_MAX_LLM_CALLS, DEFAULT_MAX_MINUTES, DEFAULT_MAX_TOKENS, Budget, MeteredProvider, for_agent,
    report_fallback, usage_tokens)
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.providers.mock import MockProvider
from harness.state.store import RunStore
from harness.utils.events import read_events

USAGE = {"prompt_tokens": 30, "completion_tokens": 20, "total_tokens": 50}


def live(server: FakeOpenAIServer, budget: Budget | None = None) -> MeteredProvider:
    env = {"OPENAI_API_KEY": "sk-budget-test", "OPENAI_BASE_URL": server.url, "HARNESS_LLM_TIMEOUT_S": "5",
           "HARNESS_LLM_MAX_RETRIES": "0"}
    return MeteredProvider(EnvOpenAICompatibleProvider(environ=env), budget or Budget())


def make_ctx(tmp_path, llm) -> RunContext:
    store = RunStore(tmp_path / "runs")
    state = store.create_run("Build a Simple Todo App with add/list/complete", run_id="r1")
    return RunContext(store=store, state=state, llm=llm, say=lambda _l: None)


def llm_events(ctx: RunContext) -> list[dict]:
    return [e for e in read_events(ctx.run_dir / "events.log") if e["stage"] == "llm"]


# ---- Budget configuration ---------------------------------------------------------------------

def test_budget_defaults_env_and_flags_in_precedence_order(monkeypatch):
    assert Budget.from_args() == Budget(DEFAULT_MAX_LLM_CALLS, DEFAULT_MAX_TOKENS, DEFAULT_MAX_MINUTES)
    monkeypatch.setenv("HARNESS_MAX_LLM_CALLS", "7")
    monkeypatch.setenv("HARNESS_MAX_TOKENS", "900")
    monkeypatch.setenv("HARNESS_MAX_MINUTES", "2.5")
    assert Budget.from_args() == Budget(7, 900, 2.5)
    args = build_parser().parse_args(["new", "a todo app", "--max-tokens", "123", "--max-minutes", "1"])
    assert Budget.from_args(args) == Budget(7, 123, 1.0)
    args = build_parser().parse_args(["resume", "r1", "--max-llm-calls", "3"])
    assert Budget.from_args(args) == Budget(3, 900, 2.5)


@pytest.mark.parametrize("name,value", [("HARNESS_MAX_TOKENS", "lots"), ("HARNESS_MAX_LLM_CALLS", "0"),
                                        ("HARNESS_MAX_MINUTES", "-1")])
def test_invalid_budget_environment_is_a_usage_error_naming_the_variable(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(InputError, match=name):
        Budget.from_args()


def test_non_positive_budget_flag_is_a_usage_error():
    args = build_parser().parse_args(["new", "x", "--max-llm-calls", "0"])
    with pytest.raises(InputError, match="--max-llm-calls must be positive"):
        Budget.from_args(args)


def test_usage_tokens_is_the_reported_total_or_none():
    assert usage_tokens(None) is None
    assert usage_tokens(Usage()) is None
    assert usage_tokens(Usage(3, 4, 9)) == 9
    assert usage_tokens(Usage(3, 4, None)) == 7


def test_state_without_llm_counters_loads_with_zero():
    state = RunState.model_validate({"run_id": "r1", "trace_id": "t", "user_request": "x"})
    assert (state.llm_calls, state.llm_tokens) == (0, 0)


# ---- MeteredProvider over real HTTP -----------------------------------------------------------

def test_calls_and_reported_tokens_are_counted(fake_openai_server):
    fake_openai_server.push(answer("one", USAGE), answer("two"), stream(["th", "ree"], usage=USAGE))
    llm = live(fake_openai_server)
    seen = []
    llm.on_call = lambda kind, ms, usage, err, **kw: seen.append((kind, usage_tokens(usage), err, kw))
    assert llm.generate("a") == "one"
    assert for_agent(llm, "builder", "TASK-002").generate("b") == "two"
    assert "".join(llm.stream("c")) == "three"
    assert (llm.calls, llm.tokens) == (3, 100)
    assert seen == [("generate", 50, "", {"agent": "", "task_id": ""}),
                    ("generate", None, "", {"agent": "builder", "task_id": "TASK-002"}),
                    ("stream", 50, "", {"agent": "", "task_id": ""})]


def test_call_budget_stops_before_the_request_is_sent(fake_openai_server):
    fake_openai_server.push(answer("a", USAGE), answer("b", USAGE), answer("c", USAGE))
    llm = live(fake_openai_server, Budget(max_llm_calls=2))
    llm.generate("1")
    for_agent(llm, "planner").generate("2")            # a view shares the meter's counters
    with pytest.raises(BudgetExceededError, match=r"^budget exceeded: 2 model calls \(max 2\)"):
        for_agent(llm, "builder").generate("3")
    assert len(fake_openai_server.requests) == 2 and llm.calls == 2


def test_token_budget_lets_the_crossing_call_finish_then_stops(fake_openai_server):
    fake_openai_server.push(answer("a", USAGE), answer("b", USAGE), answer("c", USAGE))
    llm = live(fake_openai_server, Budget(max_tokens=60))
    llm.generate("1")                                  # 50 < 60
    llm.generate("2")                                  # crosses: 100
    with pytest.raises(BudgetExceededError, match=r"budget exceeded: 100 tokens \(max 60\).*--max-tokens"):
        llm.generate("3")
    assert len(fake_openai_server.requests) == 2


def test_minutes_budget(fake_openai_server):
    fake_openai_server.push(answer("a", USAGE))
    llm = live(fake_openai_server, Budget(max_minutes=1e-9))
    with pytest.raises(BudgetExceededError, match="minutes"):
        llm.generate("1")
    assert fake_openai_server.requests == []


def test_counters_continue_from_earlier_usage(fake_openai_server):
    fake_openai_server.push(answer("a", USAGE))
    llm = MeteredProvider(live(fake_openai_server).inner, Budget(max_tokens=1000), used_calls=4, used_tokens=990)
    llm.generate("1")
    assert (llm.calls, llm.tokens) == (5, 1040)
    with pytest.raises(BudgetExceededError):
        llm.generate("2")


def test_failed_calls_are_counted_and_reported_with_their_error(fake_openai_server):
    fake_openai_server.push(error(400, "bad request"))
    llm = live(fake_openai_server)
    seen = []
    llm.on_call = lambda kind, ms, usage, err, **kw: seen.append((usage, err))
    with pytest.raises(ProviderError):
        llm.generate("x")
    assert llm.calls == 1 and llm.tokens == 0
    [(usage, err)] = seen
    assert usage is None and "RequestRejectedError" in err and "HTTP 400" in err


def test_the_offline_mock_is_never_metered_nor_limited():
    llm = MeteredProvider(MockProvider(), Budget(max_llm_calls=1, max_tokens=1, max_minutes=1e-9))
    llm.on_call = lambda *a, **k: pytest.fail("offline calls are not model calls")
    for _ in range(3):
        llm.generate("x")
        with pytest.raises(ProviderError):
            llm.generate_structured("x", RunState)
    assert llm.calls == 0


def test_a_scripted_mock_counts_as_a_model():
    llm = MeteredProvider(MockProvider(script=["a", "b"]), Budget(max_llm_calls=1))
    assert llm.generate("x") == "a"
    with pytest.raises(BudgetExceededError):
        llm.generate("y")


# ---- wiring into a run ------------------------------------------------------------------------

def test_every_call_is_an_llm_event_and_counts_persist_in_state(tmp_path, fake_openai_server):
    fake_openai_server.push(answer("a", USAGE), answer("b"), error(400, "nope"))
    ctx = make_ctx(tmp_path, live(fake_openai_server))
    for_agent(ctx.llm, "builder", "TASK-001").generate("x")
    for_agent(ctx.llm, "reviewer").generate("y")
    with pytest.raises(ProviderError):
        for_agent(ctx.llm, "planner").generate("z")
    evs = llm_events(ctx)
    assert [(e["agent"], e["task_id"], e["tokens"], e["status"], e["tool"]) for e in evs] == [
        ("builder", "TASK-001", 50, "ok", "generate"), ("reviewer", "", None, "ok", "generate"),
        ("planner", "", None, "error", "generate")]
    assert all(e["model"] == "gpt-4o-mini" and e["duration_ms"] is not None for e in evs)
    assert evs[0]["detail"] == {"prompt_tokens": 30, "completion_tokens": 20}
    assert "HTTP 400" in evs[2]["error"]
    ctx.save()
    stored = ctx.store.load("r1")
    assert (stored.llm_calls, stored.llm_tokens) == (3, 50)

    again = live(fake_openai_server, Budget(max_llm_calls=3))
    RunContext(store=ctx.store, state=stored, llm=again)     # a resumed run continues counting
    assert (again.calls, again.tokens) == (3, 50)
    with pytest.raises(BudgetExceededError):
        again.generate("more")


def test_repair_fallback_reaches_the_event_log(tmp_path):
    ctx = make_ctx(tmp_path, MeteredProvider(MockProvider(script=[]), Budget()))
    report_fallback(for_agent(ctx.llm, "repair_agent", "TASK-003"), "repair", "repair_agent", "not JSON", "TASK-003")
    report_fallback(MockProvider(), "repair", "repair_agent", "ignored without a meter")
    [event] = [e for e in read_events(ctx.run_dir / "events.log") if e["status"] == "fallback"]
    assert (event["stage"], event["agent"], event["task_id"]) == ("repair", "repair_agent", "TASK-003")
    assert "not JSON" in event["error"]


def test_plan_fallback_is_logged_for_any_model_not_only_a_live_one(tmp_path):
    ctx = make_ctx(tmp_path, MeteredProvider(MockProvider(script=["the plan is: first set up, then"] * 2), Budget()))
    ctx.state.spec = postprocess(rule_based_spec(ctx.state.user_request))
    plan_stage(ctx)
    assert ctx.state.plan.source == "fallback"
    [event] = [e for e in read_events(ctx.run_dir / "events.log") if e["status"] == "fallback"]
    assert event["stage"] == "plan" and "no JSON object in the answer" in event["error"]
    assert [e["agent"] for e in llm_events(ctx)] == ["planner", "planner"]   # one corrective retry


def test_offline_plan_logs_no_fallback(tmp_path):
    ctx = make_ctx(tmp_path, MeteredProvider(MockProvider(), Budget()))
    ctx.state.spec = postprocess(rule_based_spec(ctx.state.user_request))
    plan_stage(ctx)
    assert not [e for e in read_events(ctx.run_dir / "events.log") if e["status"] == "fallback"]
    assert Planner(ctx.llm).plan(ctx.state.spec).source == "fallback"


def test_reviewer_keeps_its_rule_based_decision_when_the_budget_is_spent():
    llm = MeteredProvider(MockProvider(script=["never used"]), Budget(max_llm_calls=1), used_calls=1)
    from harness.models.trace import MatrixRow, TraceMatrix
    from harness.trace.verdict import decide

    matrix = TraceMatrix(requirements=[MatrixRow(id="REQ-001", status="PASS", evidence=["e"])], passed=1, total=1)
    report = decide(matrix)
    notes = Reviewer(llm).notes(matrix, report)
    assert report.overall_status == "PASS"
    assert any("budget exceeded" in n for n in notes)


def test_builder_refuses_a_file_map_with_a_disallowed_path_before_writing_any_file(tmp_path):
    import json

    from harness.agents.builder import Builder
    from harness.models.tasks import Task
    from harness.sandbox.local import LocalSandbox
    from harness.tools.file_tools import FileTools

    spec = postprocess(rule_based_spec("Build a Simple Todo App with add/list/complete"))
    task = Task(id="TASK-001", description="d", files_touched=["src/a.py"], requirements=["REQ-001"],
                verification=["python -m pytest -q"])
    llm = MockProvider(script=[json.dumps({"src/a.py": "A = 1\n", "src/z_evil.py": "x"})])
    with pytest.raises(PermissionError, match="src/z_evil.py"):
        Builder(llm).build(task, spec, FileTools(LocalSandbox(tmp_path), task.files_touched))
    assert not (tmp_path / "src/a.py").exists() and not (tmp_path / "src/z_evil.py").exists()


def test_budgets_set_by_environment_are_kept_for_resume(tmp_path, monkeypatch):
    """#50: `HARNESS_MAX_TOKENS=5000 builder new …` then `builder resume` ran on with the 2,000,000
    default. The run keeps the budgets it was started with; one set again at resume wins."""
    from harness.errors import HarnessError
    from harness.orchestration.pipeline import new_run, resume_run

    store = RunStore(tmp_path / "runs")
    monkeypatch.setenv("HARNESS_MAX_TOKENS", "5000")
    monkeypatch.setenv("HARNESS_MAX_MINUTES", "7")
    with pytest.raises(HarnessError):       # nothing buildable: the run stops at SPEC, saved
        new_run(store, "qwzx", MeteredProvider(MockProvider(), Budget.from_args()), run_id="kept",
                say=lambda line: None, audit=None)
    assert store.load("kept").options.budget == {"max_tokens": 5000, "max_minutes": 7.0}
    monkeypatch.delenv("HARNESS_MAX_TOKENS")
    monkeypatch.setenv("HARNESS_MAX_MINUTES", "9")
    resumed = MeteredProvider(MockProvider(), Budget.from_args())
    with pytest.raises(HarnessError):
        resume_run(store, "kept", resumed, say=lambda line: None, audit=None)
    assert (resumed.budget.max_tokens, resumed.budget.max_minutes) == (5000, 9.0)
    assert resumed.budget.max_llm_calls == DEFAULT_MAX_LLM_CALLS
