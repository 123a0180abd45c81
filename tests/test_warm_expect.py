"""#19: the worker memoizes the files the harness is about to write (WarmWorker.expect) while its
children run, so the later task sessions are forked without compiling, rewriting and parsing
them first; an entry is used only for a file with exactly the expected bytes."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from harness.models.enums import TaskStatus
from harness.speed.warm import workers as warm
from pytest_harness import forgery
from test_warm_test_rewrites import serve  # noqa: E402 - tests/ is on pythonpath

CALC = "def double(x):\n    return x * 2\n"
TEST_CALC = "from src.calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n"
FIRST = "def test_first():\n    assert 1 + 1 == 2\n"


def _workspace(tmp_path):
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "src").mkdir()
    (ws / "src" / "__init__.py").write_text("")
    (ws / "pytest.ini").write_text("[pytest]\ntestpaths = tests\npythonpath = .\n")
    (ws / "tests" / "test_first.py").write_text(FIRST)
    return ws


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One worker, told to expect src/calc.py and tests/test_calc.py (and, wrongly, a passing
    tests/test_other.py), serves tests/test_first.py (its idle time memoizes them); then the files
    are written, test_other.py with a failing assertion instead, and each is served once."""
    ws = _workspace(tmp_path_factory.mktemp("expect"))
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    done = {}
    try:
        sent = worker.expect({"src/calc.py": CALC, "tests/test_calc.py": TEST_CALC,
                              "tests/test_other.py": "def test_other():\n    assert 2 * 2 == 4\n",
                              "README.md": "not python"})
        done["sent"] = sent
        for _ in range(20):  # the expected files are memoized while sessions run: until none is left
            done["first"] = serve(worker, ws, "tests/test_first.py")
            if done["first"][0]["expected_left"] == 0:
                break
        (ws / "src" / "calc.py").write_text(CALC)
        (ws / "tests" / "test_calc.py").write_text(TEST_CALC)
        (ws / "tests" / "test_other.py").write_text("def test_other():\n    assert 2 * 2 == 5\n")
        done["calc"] = serve(worker, ws, "tests/test_calc.py")
        done["other"] = serve(worker, ws, "tests/test_other.py")
    finally:
        worker.stop()
    return done


@pytest.mark.slow
def test_expected_files_are_memoized_while_idle_and_used_when_written_as_expected(served):
    assert served["sent"] == 3  # the .py files only
    first, _ = served["first"]
    assert (first["exit_code"], first["expected_left"]) == (0, 0)
    calc, out = served["calc"]
    assert (calc["exit_code"], calc["rewritten_tests"], calc["compiled_modules"]) == (0, 0, 0), out


@pytest.mark.slow
def test_a_file_written_with_other_bytes_than_expected_runs_what_was_written(served):
    other, out = served["other"]
    assert other["exit_code"] == 1 and other["rewritten_tests"] == 1
    assert "1 failed" in out and "== 5" in out


def test_forgery_takes_an_entry_parsed_ahead_only_for_the_same_source(tmp_path):
    root = tmp_path / "ws"
    (root / "tests").mkdir(parents=True)
    same = "def test_a():\n    assert 1\n"
    forgery.remember(root, "tests/test_a.py", same)
    forgery.remember(root, "tests/test_b.py", "def test_b():\n    assert 1\n")
    ahead = forgery._AHEAD[str(root / "tests" / "test_a.py")]
    (root / "tests" / "test_a.py").write_text(same)
    (root / "tests" / "test_b.py").write_text("def test_b():\n    assert 2\n")
    try:
        forgery.prime(root)
        assert forgery._PARSED[str(root / "tests" / "test_a.py")] is ahead
        b = forgery._PARSED[str(root / "tests" / "test_b.py")]
        assert b[0] == "def test_b():\n    assert 2\n"  # parsed from what was written
        assert str(root / "tests" / "test_b.py") not in forgery._AHEAD
    finally:
        for key in [k for k in forgery._PARSED if k.startswith(str(root))]:
            del forgery._PARSED[key]


def _ctx(tmp_path, llm):
    from harness.agents.planner import fallback_plan
    from harness.agents.spec_agent import SpecAgent
    from harness.providers.mock import MockProvider

    spec = SpecAgent(MockProvider()).fallback("Build a Simple Todo App with add/list/complete")
    plan = fallback_plan(spec)
    return SimpleNamespace(llm=llm, workspace=tmp_path, run_id="run_x",
                           state=SimpleNamespace(plan=plan, spec=spec,
                                                 task_results={t.id: TaskStatus.PENDING for t in plan.tasks}))


def test_an_offline_build_hands_the_worker_every_later_tasks_files(tmp_path, monkeypatch):
    from harness.speed.warm_start import expect_planned_files
    from harness.providers.mock import MockProvider

    seen = []
    monkeypatch.setattr(warm, "expect", lambda ws, env, files: seen.append(files) or len(files))
    ctx = _ctx(tmp_path, MockProvider())
    assert expect_planned_files(ctx) > 0
    tasks = ctx.state.plan.tasks
    later = [rel for task in tasks[1:] for rel in task.files_touched]
    assert list(seen[0]) == [rel for rel in later if rel in seen[0]]  # task order, later tasks only
    assert not set(seen[0]) & set(tasks[0].files_touched)
    assert {"src/main.py", "tests/test_acceptance.py"} <= set(seen[0])


def test_a_run_with_a_model_expects_nothing(tmp_path, monkeypatch):
    from harness.speed.warm_start import expect_planned_files

    seen = []
    monkeypatch.setattr(warm, "expect", lambda ws, env, files: seen.append(files) or len(files))
    model = SimpleNamespace(model="some-model", complete=lambda *a, **k: json.dumps({}))
    monkeypatch.setattr("harness.providers.base.has_model", lambda llm: llm is model)
    assert expect_planned_files(_ctx(tmp_path, model)) == 0
    assert seen == []
