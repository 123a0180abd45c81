"""#46: speed behind one door with one switch. HARNESS_SPEED=0 (and `--no-speed`) turns every
acceleration path off; with it on or off, a build reaches the same review statuses and audit
verdicts — speed only ever changes when work happens, never what it finds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.audit.run import AuditBudget
from harness.speed.door import Speed
from helpers import SEED, TODO

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "club_bookings.toml"


def test_harness_speed_0_turns_every_path_off(monkeypatch, tmp_path):
    from harness.speed.warm import rewrite_cache, workers as warm
    from harness.speed import lanes_ahead, server_prestart
    from harness.verification.carry_inputs import carry_enabled

    monkeypatch.setenv("HARNESS_SPEED", "0")
    speed = Speed()
    assert speed.on is False and speed.runner() is None
    assert not warm.warm_enabled() and not carry_enabled() and not rewrite_cache.enabled()
    assert not server_prestart.enabled()
    ctx = type("Ctx", (), {"audit": AuditBudget(), "run_id": "r", "store": None})()
    assert not lanes_ahead.eligible(ctx)
    assert speed.prestarted_server(ctx) is None and speed.build_started(ctx) == 0
    speed.reaudit_beside_runtime(ctx)             # --harness-run's re-audit: runs after the check
    assert speed.take_audit(ctx) is None


def test_the_finer_switches_cannot_turn_a_path_on_when_speed_is_off(monkeypatch):
    from harness.utils.speed_switch import carry_on, warm_on

    monkeypatch.setenv("HARNESS_SPEED", "0")
    monkeypatch.setenv("HARNESS_WARM", "1")
    monkeypatch.setenv("HARNESS_CARRY", "1")
    assert not warm_on() and not carry_on()
    monkeypatch.setenv("HARNESS_SPEED", "1")
    assert warm_on() and carry_on()
    monkeypatch.setenv("HARNESS_WARM", "0")
    assert not warm_on() and carry_on()


@pytest.mark.parametrize("command", ["new", "resume"])
def test_no_speed_flag_is_accepted_by_new_and_resume(command, monkeypatch):
    from harness.cli import build_parser
    from harness.commands.build import _speed_switch

    monkeypatch.setenv("HARNESS_SPEED", "1")   # recorded: restored after the test whatever --no-speed sets
    argv = [command, "x", "--no-speed"] if command == "resume" else [command, "a todo app", "--no-speed"]
    args = build_parser().parse_args(argv)
    assert args.no_speed is True
    _speed_switch(args)
    import os

    assert os.environ["HARNESS_SPEED"] == "0" and Speed().on is False


def _build(base: Path, request: str | None, spec_path: Path | None):
    from harness.orchestration.pipeline import new_run
    from harness.providers.mock import MockProvider
    from harness.state.store import RunStore

    spec = None
    if spec_path is not None:
        from harness.offline.spec_file import spec_for_args

        spec, request = spec_for_args(None, str(spec_path))
    store = RunStore(base)
    ctx = new_run(store, request, MockProvider(), say=lambda _line: None, spec=spec, audit=AuditBudget())
    return store, ctx


def _verdicts(store, ctx) -> dict:
    """Task statuses, review statuses, the runtime check and the audit's verdict per requirement
    (does it meet the kill bar: trace/evidence_checks.mutation_lines). Which mutants a time box
    reached may differ with the machine's load; the verdict may not."""
    from harness.trace.evidence_checks import mutation_lines

    review = ctx.state.review
    audit = store.read_audit(ctx.run_id) or {}
    return {
        "status": ctx.state.status.value,
        "tasks": {tid: s.value for tid, s in ctx.state.task_results.items()},
        "review": {r.id: r.status for r in review.requirements},
        "overall": review.overall_status,
        "runtime": ctx.state.runtime.status,
        "audit": {rid: (bool(r["mutants"]), not mutation_lines(audit, rid), r["skipped"])
                  for rid, r in (audit.get("requirements") or {}).items()},
    }


def _final_suite_executed_everything(results) -> None:
    """The final suite's result carried nothing, and is either VERIFY's own session or the last
    task's whole-suite session on the same bytes (harness/speed/task_suite.py): that session, in this
    run, carried nothing, passed, and its document is the one the final suite names."""
    final = [r for r in results if r.task_id == "WORKSPACE"][-1]
    assert final.carried == 0
    if final.reused_from is not None:
        source = next(r for r in results if r.evidence_path == final.reused_from and r.task_id != "WORKSPACE")
        assert source.status == "PASS" and source.carried == 0 and source.reused_from is None
        assert source.evidence_digest == final.evidence_digest


def _speed_on_build(request, tmp_path, monkeypatch, request_text, spec_path, shared):
    """The build with speed on: the session's shared build of the same request when there is one
    (conftest.py: todo_run and seed_run are exactly `_build` of TODO and SEED with the audit, read
    here only), else a build of its own."""
    if shared is None:
        monkeypatch.setenv("HARNESS_SPEED", "1")
        return _build(tmp_path / "fast", request_text, spec_path)
    return request.getfixturevalue(shared)


@pytest.mark.slow
@pytest.mark.timeout(900)   # two whole builds with the audit, one of them plain (cold)
@pytest.mark.parametrize("request_text, spec_path, shared", [(SEED, None, "seed_run"), (TODO, None, "todo_run"),
                                                             (None, EXAMPLE, None)],
                         ids=["task-management-request", "todo-seed", "club_bookings"])
def test_speed_on_and_off_give_the_same_review_and_audit_verdicts(request, tmp_path, monkeypatch, request_text,
                                                                  spec_path, shared):
    fast_store, fast = _speed_on_build(request, tmp_path, monkeypatch, request_text, spec_path, shared)
    if spec_path is None:
        assert fast.state.user_request == request_text
    assert fast.state.options.audit                       # audited, as the plain build below
    assert {r.runner for r in fast.state.verification_results if r.runner} >= {"warm"}   # speed was on
    monkeypatch.setenv("HARNESS_SPEED", "0")
    plain_store, plain = _build(tmp_path / "plain", request_text, spec_path)

    assert _verdicts(fast_store, fast) == _verdicts(plain_store, plain)
    assert _verdicts(plain_store, plain)["audit"]            # the audit judged mutants in both
    # with speed off nothing was warm, carried, started ahead or adopted
    plain_results = plain.state.verification_results
    assert {r.runner for r in plain_results if r.runner} == {"cold"}
    assert not any(r.carried for r in plain_results)
    assert not any("run beside" in line or "runner: warm" in line for line in plain.state.runtime.evidence)
    assert plain_store.read_audit(plain.run_id).get("lanes_ahead") is False
    # with speed on, every test of the final suite was still executed, nothing carried
    _final_suite_executed_everything(fast.state.verification_results)


def _scripted_llm_build(base: Path):
    """The Todo request built by the scripted model over real HTTP (tests/fake_openai_server.py, the
    script of tests/test_llm_e2e.py): spec, plan, the first task's file map with a syntax error, the
    repair that fixes it, the other tasks' file maps, the reviewer's note. (store, ctx, the model
    calls made, the replies left over)."""
    from fake_openai_server import FakeOpenAIServer, answer
    from test_llm_e2e import BROKEN, TASKS, TODO as LLM_TODO, USAGE, file_map, note_answer, plan_answer, provider, \
        spec_answer, task_answer

    from harness.orchestration.pipeline import new_run
    from harness.state.store import RunStore

    good = file_map("TASK-001")["src/models.py"]
    script = [spec_answer(), plan_answer(), task_answer("TASK-001", **{"src/models.py": BROKEN + good}),
              answer(json.dumps({"src/models.py": good}), USAGE), *[task_answer(t) for t in TASKS[1:]], note_answer()]
    store = RunStore(base)
    with FakeOpenAIServer(script) as server:
        ctx = new_run(store, LLM_TODO, provider(server), say=lambda _line: None, audit=AuditBudget())
        return store, ctx, [r.body["messages"][0]["content"][:60] for r in server.requests], server.pending


@pytest.mark.slow
@pytest.mark.timeout(900)   # two whole builds with the audit, one of them plain (cold)
def test_speed_on_and_off_give_the_same_verdicts_on_the_llm_path(tmp_path, monkeypatch):
    """#46: the LLM path with the scripted model — a repair included — reaches the same task,
    review, runtime and audit verdicts with speed on and with HARNESS_SPEED=0, asking the model the
    same things in the same order."""
    monkeypatch.setenv("HARNESS_SPEED", "1")
    fast_store, fast, fast_calls, fast_left = _scripted_llm_build(tmp_path / "fast")
    monkeypatch.setenv("HARNESS_SPEED", "0")
    plain_store, plain, plain_calls, plain_left = _scripted_llm_build(tmp_path / "plain")

    assert fast.state.repair_attempts == plain.state.repair_attempts == {"TASK-001": 1}   # the model's repair ran
    assert fast_calls == plain_calls and fast_left == plain_left == 0
    assert _verdicts(fast_store, fast) == _verdicts(plain_store, plain)
    assert _verdicts(plain_store, plain)["audit"]            # the audit judged mutants in both
    assert fast.state.plan.source == plain.state.plan.source == "llm"   # the model's plan, not the rules'
    plain_results = plain.state.verification_results
    assert {r.runner for r in plain_results if r.runner} == {"cold"} and not any(r.carried for r in plain_results)
    assert {r.runner for r in fast.state.verification_results if r.runner} >= {"warm"}   # speed was on
    _final_suite_executed_everything(fast.state.verification_results)
