"""#19: the audit's candidate sites are computed once per source text (pytest_harness/mutation_plan.py) and,
in a build, beside the verification of the task that completes the app instead of after the suite;
a plan made from the cache is the plan made without it."""

from __future__ import annotations

import random

import pytest

from pytest_harness import mutation_plan as plan_mod
from harness.audit.mutator import candidates
from harness.audit.plan import file_candidates, make_plan, precompute
from test_mutator import SOURCE, _evidence  # noqa: E402 - tests/ is on pythonpath


@pytest.fixture(autouse=True)
def _empty_cache(monkeypatch):
    monkeypatch.setattr(plan_mod, "_CANDIDATES", {})


def test_cached_candidates_filtered_by_lines_are_the_candidates_on_those_lines():
    everything = file_candidates(SOURCE)
    assert file_candidates(SOURCE) is everything  # computed once
    rng = random.Random(7)
    all_lines = sorted({m.line for m in everything})
    for _ in range(20):
        lines = set(rng.sample(all_lines, rng.randint(0, len(all_lines))))
        assert [m for m in everything if m.line in lines] == candidates(SOURCE, lines, describe=False)


def test_a_plan_from_precomputed_sites_is_the_plan_computed_fresh(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "src" / "m.py").write_text(SOURCE)
    (tmp_path / "tests" / "test_m.py").write_text("def test_m():\n    assert 1\n")
    fresh = make_plan(_evidence([5, 7], [16]), tmp_path, max_mutants=10, decoys=0)   # decoys: random draws
    plan_mod._CANDIDATES.clear()
    assert precompute(tmp_path) == 1  # src/m.py only: test modules are never mutated
    assert precompute(tmp_path) == 0
    cached = make_plan(_evidence([5, 7], [16]), tmp_path, max_mutants=10, decoys=0)
    site = lambda plan: [(rid, plan.chosen[i].file, plan.chosen[i].mutant, tests)  # noqa: E731 - ids: random draws
                         for rid, i, tests in plan.order()]
    assert site(cached) == site(fresh)
    assert all(c.mutant.description for c in cached.chosen.values())


def test_a_changed_source_gets_its_own_sites(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text(SOURCE)
    precompute(tmp_path)
    changed = SOURCE.replace("score", "points")
    assert changed != SOURCE
    (tmp_path / "src" / "m.py").write_text(changed)
    plan = make_plan(_evidence([5, 7], [16]), tmp_path, max_mutants=10)
    assert changed in plan_mod._CANDIDATES and SOURCE in plan_mod._CANDIDATES
    assert [m.key for m in file_candidates(changed)] == [m.key for m in candidates(changed, describe=False)]
    assert plan.mutants["REQ-001"]


def _ctx(tmp_path, audit):
    from types import SimpleNamespace

    from harness.models.enums import TaskStatus
    from harness.models.tasks import Plan, Task

    tasks = [Task(id="TASK-001", description="app", files_touched=["src/m.py"], verification=["pytest -q"]),
             Task(id="TASK-002", description="acceptance", files_touched=["tests/test_acceptance.py"],
                  verification=["pytest -q"], depends_on=["TASK-001"])]
    state = SimpleNamespace(plan=Plan(tasks=tasks), task_results={"TASK-001": TaskStatus.RUNNING,
                                                                  "TASK-002": TaskStatus.PENDING})
    return SimpleNamespace(audit=audit, state=state, workspace=tmp_path, run_id="run_x"), tasks


def test_the_task_that_completes_the_app_computes_the_sites_beside_its_session(tmp_path):
    from harness.speed.door import Speed

    audit_candidates_beside = Speed(on=True).audit_candidates_beside
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text(SOURCE)
    ctx, tasks = _ctx(tmp_path, audit=object())
    assert audit_candidates_beside(_ctx(tmp_path, audit=None)[0], tasks[0], False) is None  # no audit: nothing
    thread = audit_candidates_beside(ctx, tasks[0], False)
    assert thread is not None
    thread.join()
    assert SOURCE in plan_mod._CANDIDATES


def test_a_line_with_a_condition_is_mutated_by_its_condition_not_by_return_none():
    """#47: `return None` mutants die to `x is not None`; on a line that also holds a comparison,
    the comparison is the mutant judged, whatever the seed."""
    source = "def pick(rows, day):\n    return [r for r in rows if r['day'] == day]\n"
    sites = candidates(source)
    assert {m.kind for m in sites if m.line == 2} >= {"return", "compare"}
    for seed in range(20):
        picked = plan_mod.spread({"src/rooms.py": sites}, 4, random.Random(seed))
        assert [m.kind for _, m in picked] == ["compare"]
