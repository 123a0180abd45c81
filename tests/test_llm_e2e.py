"""The LLM path end to end: whole builds against a local OpenAI-compatible server (real HTTP).

The "model" answers are scripted in the order the harness calls it: spec (structured), plan
(structured), one file map per task, a repair answer when a task fails, one reviewer note. The
working file maps are computed with the deterministic generator, so a correct script is known.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from fake_openai_server import FakeOpenAIServer, answer, error, hang
from helpers import run_spec_stage, sandbox_opt_out_without_bwrap

from harness.agents.planner import SYSTEM as PLANNER_SYSTEM, fallback_plan
from harness.trace.coverage import FALLBACK_NOTE
from harness.agents.spec_agent import SYSTEM as SPEC_SYSTEM, postprocess
from harness.offline.spec import parse_request
from harness.errors import EXIT_TEMPFAIL, BudgetExceededError, ProviderConfigError, ProviderUnavailableError
from harness.offline.generator.units import generate_unit
from harness.models.enums import RunStatus, TaskStatus
from harness.orchestration.pipeline import summary_text, new_run, resume_run
from harness.providers.budget import Budget, MeteredProvider
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.state.store import RunStore
from harness.utils.events import read_events

TODO = "Build a Simple Todo App with add/list/complete"
KEY = "sk-test-RECOGNIZABLE-KEY-123"
USAGE = {"prompt_tokens": 60, "completion_tokens": 40, "total_tokens": 100}
SPEC = postprocess(parse_request(TODO))   # the rules fallback is word-accounted (#48)
PLAN = fallback_plan(SPEC)
TASKS = [t.id for t in PLAN.tasks]                    # TASK-001 .. TASK-005
BROKEN = "def broken(:\n    pass\n"


def file_map(task_id: str) -> dict[str, str]:
    task = next(t for t in PLAN.tasks if t.id == task_id)
    return generate_unit(SPEC, task.kind)


def task_answer(task_id: str, usage: dict | None = USAGE, **override: str):
    return answer(json.dumps({**file_map(task_id), **override}), usage)


def spec_answer(usage: dict | None = USAGE):
    return answer(SPEC.model_dump_json(), usage)


def plan_answer(usage: dict | None = USAGE):
    return answer("```json\n" + PLAN.model_dump_json() + "\n```", usage)


def note_answer(usage: dict | None = None):
    return answer("All four requirements have tests.\nNo concerns.", usage)


def provider(server: FakeOpenAIServer, budget: Budget | None = None, **env: str) -> MeteredProvider:
    environ = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.url, "HARNESS_LLM_TIMEOUT_S": "10", **env}
    return MeteredProvider(EnvOpenAICompatibleProvider(environ=environ), budget or Budget())


def events(store: RunStore, run_id: str) -> list[dict]:
    return read_events(store.run_dir(run_id) / "events.log")


def llm_events(evs: list[dict]) -> list[dict]:
    return [e for e in evs if e["stage"] == "llm"]


def quiet(_line: str) -> None:
    pass


def cli(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    """`builder …` in a subprocess with only the given OPENAI_/HARNESS_ variables."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "HARNESS_"))}
    script = Path(sys.executable).parent / "builder"    # the console script of this interpreter
    argv = [str(script)] if script.is_file() else [sys.executable, "-m", "harness.cli"]
    return subprocess.run(argv + args, cwd=cwd, env={**base, **sandbox_opt_out_without_bwrap(), **env},
                          capture_output=True, text=True, timeout=240)


def all_run_files(run_dir: Path) -> list[Path]:
    return [p for p in run_dir.rglob("*") if p.is_file()]


# ---- (1) + (4) ---------------------------------------------------------------------------------
# Scenarios 1 and 4 through `builder new` (a 429 first, tokens counted, the key in no file of the run)
# are asserted by the same real LLM CLI build that snoops for the key from inside a generated test:
# tests/test_containment_cli.py::test_cli_build_key_is_unreadable_from_every_process_a_generated_test_sees.


# ---- (2) + (5) ----------------------------------------------------------------------------------
# One run is both scenarios (they were two whole builds): the planner's calls hang until the timeout
# and its retry too -> exit 75 after the spec; the resume gets a plan and a syntax error in the first
# file map, which one LLM repair fixes, and finishes PASS.

@pytest.fixture(scope="module")
def hung_then_repaired(tmp_path_factory):
    """The failed `new_run` (.caught, .failed_state, .latest, .failed_events, .failed_requests) and the
    `resume_run` that finished it (.ctx, .requests: every request of the run, .resumed: the resume's)."""
    store = RunStore(tmp_path_factory.mktemp("hung") / "runs")
    good = file_map("TASK-001")["src/models.py"]
    with FakeOpenAIServer([spec_answer(), hang(3)]) as server:
        with pytest.raises(ProviderUnavailableError) as caught:
            hung = provider(server, HARNESS_LLM_TIMEOUT_S="0.5", HARNESS_LLM_MAX_RETRIES="1")
            hung.inner.client.backoff_s = 0.05   # the wait before the retry is not what this asserts
            new_run(store, TODO, hung, run_id="hung", say=quiet)
        failed_requests = len(server.requests)
        failed_state, latest = store.resume("hung")     # state and checkpoints agree
        failed_events = events(store, "hung")

        server.push(plan_answer(), task_answer("TASK-001", **{"src/models.py": BROKEN + good}),
                    answer(json.dumps({"src/models.py": good}), USAGE),
                    *[task_answer(t) for t in TASKS[1:]], note_answer())
        ctx = resume_run(store, "hung", provider(server), say=quiet, audit=None)  # not about the audit
        requests = list(server.requests)
    return SimpleNamespace(store=store, caught=caught, failed_requests=failed_requests, failed_state=failed_state,
                           latest=latest, failed_events=failed_events, ctx=ctx, requests=requests,
                           resumed=requests[failed_requests:], good=good)


def test_syntax_error_in_the_first_file_map_is_fixed_by_one_llm_repair(hung_then_repaired):
    run = hung_then_repaired
    ctx, resumed = run.ctx, run.resumed
    assert ctx.state.status == RunStatus.PASS
    assert ctx.state.repair_attempts == {"TASK-001": 1}
    assert len(resumed) == 1 + len(TASKS) + 1 + 1                        # plan, tasks, the repair, the note
    assert "def broken(:" in resumed[2].body["messages"][-1]["content"]   # the repair saw the broken file
    evs = events(run.store, ctx.run_id)
    answered = [e["agent"] for e in llm_events(evs) if e["status"] != "error"]   # not the hung planner calls
    assert answered[:5] == ["spec_agent", "planner", "builder", "repair_agent", "builder"]
    [attempt] = [e for e in evs if e["stage"] == "repair" and e["status"].startswith("attempt")]
    assert attempt["task_id"] == "TASK-001" and attempt["tool"] == "llm"
    assert attempt["detail"]["files_changed"] == ["src/models.py"]
    first = [r for r in ctx.state.verification_results if r.task_id == "TASK-001"]
    assert [r.status for r in first] == ["FAIL", "PASS"]
    assert (ctx.workspace / "src/models.py").read_text() == run.good


# ---- (3) ----------------------------------------------------------------------------------------

def test_prose_and_broken_json_everywhere_fall_back_to_the_deterministic_path(tmp_path, todo_run):
    store = RunStore(tmp_path / "runs")
    junk = ["Sure! Here is your app:\n{\"title\": \"Todo\", ", "I think you want a todo list.",
            "```json\n{\"src/x.py\": \n```"]
    with FakeOpenAIServer([answer(junk[i % 3], USAGE) for i in range(30)]) as server:
        ctx = new_run(store, TODO, provider(server), say=quiet, audit=None)  # not about the audit
        requests = len(server.requests)
    assert ctx.state.status == RunStatus.PASS
    # every agent asks once more with the error before falling back; one reviewer note
    assert requests == 2 + 2 + 2 * len(TASKS) + 1
    evs = events(store, ctx.run_id)
    fallbacks = {(e["stage"], e["task_id"]) for e in evs if e["status"] == "fallback"}
    assert fallbacks == {("spec", ""), ("plan", ""), *{("build", t) for t in TASKS}}
    assert all(e["error"] for e in evs if e["status"] == "fallback")
    assert ctx.state.plan.source == "fallback"
    assert {e["tool"] for e in evs if e["stage"] == "build" and e["status"] == "completed"} == {"generator"}
    # the same app as the offline build
    offline_store, offline_ctx = todo_run
    # #13: the fallback is said plainly in the spec (and so on the SPEC line and in the summary)
    said = [n for n in ctx.state.spec.notes if n.startswith(FALLBACK_NOTE)]
    assert len(said) == 1 and "offline parser" in said[0]
    assert any(n.startswith(FALLBACK_NOTE) for n in ctx.state.review.coverage["notes"])
    kept = [n for n in ctx.state.spec.notes if not n.startswith(FALLBACK_NOTE)]
    assert ctx.state.spec.model_copy(update={"notes": kept}) == offline_ctx.state.spec
    assert [t.files_touched for t in ctx.state.plan.tasks] == [t.files_touched for t in offline_ctx.state.plan.tasks]
    assert ctx.state.file_hashes == offline_ctx.state.file_hashes
    assert sum(e["tokens"] or 0 for e in llm_events(evs)) == ctx.state.llm_tokens == 100 * requests
    # #50: who wrote the app is said plainly: every task by the generator, no model answer used
    text = summary_text(ctx)
    for t in TASKS:
        assert f"- {t}: offline generator (fallback: the model's answer was unusable)" in text
    assert f"Model answers: 0 used, {2 + len(TASKS)} fell back to the offline path ({requests} model calls)" in text


# ---- (5) (its run: hung_then_repaired, above) ----------------------------------------------------

def test_hanging_server_times_out_once_not_retried_then_exit_75_and_the_run_resumes(hung_then_repaired):
    """#50: a silent request is not sent again (a local server may still be working on it)."""
    run = hung_then_repaired
    caught, state, latest = run.caught, run.failed_state, run.latest
    assert caught.value.exit_code == EXIT_TEMPFAIL
    assert "timed out" in str(caught.value) and "not retried" in str(caught.value)
    assert "HARNESS_LLM_TIMEOUT_S" in str(caught.value)
    assert run.failed_requests == 2
    assert state.status == RunStatus.FAIL and "timed out" in state.error
    assert state.spec is not None and state.plan is None and latest["event"] == "spec_created"
    assert state.llm_calls == 2 and state.llm_tokens == 100
    [failed] = [e for e in llm_events(run.failed_events) if e["status"] == "error"]
    assert failed["agent"] == "planner" and failed["tokens"] is None and "timed out" in failed["error"]

    ctx, resumed = run.ctx, run.resumed
    assert ctx.state.status == RunStatus.PASS and ctx.state.error == ""
    assert resumed[0].body["messages"][0]["content"] == PLANNER_SYSTEM      # the spec was not asked again
    assert not [r for r in resumed if r.body["messages"][0]["content"] == SPEC_SYSTEM]
    assert ctx.state.llm_calls == 2 + 1 + len(TASKS) + 1 + 1              # ... + the repair's call


# ---- (6) ----------------------------------------------------------------------------------------
# The token budget crossed mid-build through `builder new`, exit 75, and `builder resume` finishing
# without rebuilding: the same real LLM CLI build that checks containment without bubblewrap,
# tests/test_containment_cli.py::test_token_budget_crossed_mid_build_exits_75_and_resume_finishes_without_rebuilding.

def test_in_process_call_budget_raises_budget_exceeded_and_keeps_the_plan(tmp_path):
    store = RunStore(tmp_path / "runs")
    with FakeOpenAIServer([spec_answer(), plan_answer()]) as server:
        with pytest.raises(BudgetExceededError, match=r"^budget exceeded: 2 model calls \(max 2\)"):
            new_run(store, TODO, provider(server, Budget(max_llm_calls=2)), run_id="calls", say=quiet)
    state = store.load("calls")
    assert state.plan is not None and state.status == RunStatus.FAIL
    assert set(state.task_results.values()) <= {TaskStatus.PENDING, TaskStatus.RUNNING}
    assert not any(store.workspace("calls").iterdir())


# ---- configuration errors and the offline path --------------------------------------------------

def test_rejected_key_is_a_one_line_error_without_the_key(tmp_path):
    with FakeOpenAIServer([spec_answer()], api_key="sk-the-right-one") as server:
        proc = cli(["new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", "badkey"], tmp_path,
                   OPENAI_API_KEY=KEY, OPENAI_BASE_URL=server.url)
        assert len(server.requests) == 1      # 401 is not retried
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "builder: LLM endpoint rejected the API key (HTTP 401): check OPENAI_API_KEY"]
    assert "RECOGNIZABLE" not in proc.stdout + proc.stderr
    run_dir = tmp_path / "runs" / "badkey"
    for path in all_run_files(run_dir):
        assert b"RECOGNIZABLE" not in path.read_bytes(), path
    assert RunStore(tmp_path / "runs").load("badkey").status == RunStatus.FAIL


def test_wrong_base_url_or_model_fails_fast_naming_what_to_fix(tmp_path):
    store = RunStore(tmp_path / "runs")
    with FakeOpenAIServer([error(404, "model not found")]) as server:
        with pytest.raises(ProviderConfigError, match="check OPENAI_BASE_URL and OPENAI_MODEL=gpt-4o-mini"):
            new_run(store, TODO, provider(server), run_id="nf", say=quiet)
        assert len(server.requests) == 1
    assert store.load("nf").status == RunStatus.FAIL


def test_without_a_key_nothing_reaches_the_endpoint_and_the_offline_path_is_unchanged(tmp_path, todo_run):
    """OPENAI_BASE_URL alone does not enable the LLM path: `builder new` stays offline (stopped
    right after TASK-001 by the crash hook to keep this fast) and writes what the offline run wrote."""
    with FakeOpenAIServer([spec_answer()]) as server:
        proc = cli(["new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", "offline"], tmp_path,
                   OPENAI_BASE_URL=server.url, HARNESS_CRASH_AT="task_completed:TASK-001")
        assert server.requests == []
    assert proc.returncode != 0 and "offline rules" in proc.stdout
    store = RunStore(tmp_path / "runs")
    state = store.load("offline")
    _, offline = todo_run
    assert state.spec == offline.state.spec and state.plan.source == "fallback"
    assert state.file_hashes == {"TASK-001": offline.state.file_hashes["TASK-001"]}
    assert (state.llm_calls, state.llm_tokens) == (0, 0)
    assert not llm_events(events(store, "offline"))


# ---- the spec agent's validation loop over HTTP ------------------------------------------------

def test_invalid_llm_spec_is_regenerated_once_with_the_validator_feedback(tmp_path):
    bad = SPEC.model_copy(deep=True)
    bad.requirements[0].entity = "ghost"
    store = RunStore(tmp_path / "runs")
    store.create_run(TODO, run_id="sp")
    with FakeOpenAIServer([answer(bad.model_dump_json(), USAGE), spec_answer()]) as server:
        spec = run_spec_stage(store, "sp", provider(server))
        feedback = server.requests[1].body["messages"][-1]["content"]
    assert spec == SPEC
    assert "rejected by the validator" in feedback and "unknown entity 'ghost'" in feedback
    assert [(e["status"], e["tool"]) for e in events(store, "sp") if e["stage"] == "spec"] == [
        ("invalid", "llm"), ("valid", "llm"), ("completed", "llm")]


def test_llm_spec_that_stays_invalid_falls_back_to_the_rules_and_says_so(tmp_path):
    bad = SPEC.model_copy(deep=True)
    bad.requirements[0].entity = "ghost"
    store = RunStore(tmp_path / "runs")
    store.create_run(TODO, run_id="sp")
    with FakeOpenAIServer([answer(bad.model_dump_json(), USAGE)] * 2) as server:
        spec = run_spec_stage(store, "sp", provider(server))
        assert len(server.requests) == 2
    # the rule-based spec of the same request, saying that it replaced the LLM's (#13)
    (note,) = spec.notes
    assert note.startswith(FALLBACK_NOTE) and "unknown entity 'ghost'" in note
    assert spec.model_copy(update={"notes": []}) == SPEC
    statuses = [(e["status"], e["tool"]) for e in events(store, "sp") if e["stage"] == "spec"]
    assert statuses == [("invalid", "llm"), ("invalid", "llm"), ("fallback", "rules"), ("completed", "rules")]
