"""The mutation audit in lanes (harness/audit/lanes.py, scratch.py): each lane its own copy and
session, a requirement's mutants in one lane, the same verdicts as one lane; the lanes past the
first served by the run's verification worker through a directory its sandbox binds."""

from __future__ import annotations

import json
import threading

import pytest

from harness.audit import lanes, scratch
from harness.audit.plan import AuditPlan


def _plan(costs: dict[str, list[float]]) -> tuple[AuditPlan, dict[str, float]]:
    """A plan whose requirement R has one mutant per listed cost, each run by one test of that cost."""
    plan, test_s, next_id = AuditPlan(), {}, 1
    for rid, mutant_costs in costs.items():
        plan.mutants[rid] = []
        for cost in mutant_costs:
            node = f"tests/test_{rid.lower()}.py::test_{next_id}"
            plan.mutants[rid].append(next_id)
            plan.runs[(rid, next_id)] = [node]
            plan.tests.setdefault(rid, []).append(node)
            test_s[node] = cost
            next_id += 1
    return plan, test_s


def test_split_keeps_every_mutant_of_a_requirement_in_one_lane_balanced_and_in_plan_order():
    plan, test_s = _plan({"REQ-001": [1.0, 1.0], "REQ-002": [0.5], "REQ-003": [0.4, 0.4], "REQ-004": [0.1]})
    cut = lanes.split(plan, test_s, 2)
    assert len(cut) == 2
    owners = [{rid for rid, _, _ in lane} for lane in cut]
    assert owners[0].isdisjoint(owners[1]) and owners[0] | owners[1] == set(plan.mutants)
    assert owners[0] == {"REQ-001"}            # the heaviest requirement alone; the rest balance it
    order = plan.order()
    for lane in cut:                           # each lane keeps the plan's round-robin order
        assert lane == [entry for entry in order if entry in lane]
    assert lanes.split(plan, test_s, 2) == cut  # the same split every time
    assert lanes.split(plan, test_s, 1) == [order]
    assert len(lanes.split(_plan({"REQ-001": [1.0]})[0], {}, 2)) == 1  # no empty lane


def test_merge_takes_each_lanes_verdicts_and_the_worst_baseline():
    one = {"results": {"REQ-001:1": "failed"}, "durations": {"REQ-001:1": 0.1},
           "baseline": {"status": "passed", "failed": [], "tests": 2, "duration_s": 0.2, "method": "confirm"}}
    two = {"results": {"REQ-002:2": "passed"}, "durations": {"REQ-002:2": 0.3},
           "baseline": {"status": "failed", "failed": ["t::b"], "tests": 3, "duration_s": 0.1, "method": "confirm"}}
    merged = lanes.merge([one, two], planned=6)
    assert merged["results"] == {"REQ-001:1": "failed", "REQ-002:2": "passed"}
    assert merged["baseline"] == {"status": "failed", "failed": ["t::b"], "tests": 5, "planned": 6,
                                  "duration_s": 0.3, "method": "confirm", "lanes": 2}
    assert lanes.merge([one], planned=6) is one


def test_lane_count_follows_the_environment_and_the_cores(monkeypatch):
    monkeypatch.setenv(scratch.ENV_LANES, "1")
    assert scratch.lane_count() == 1
    monkeypatch.setenv(scratch.ENV_LANES, "9")   # out of range: the default
    assert 1 <= scratch.lane_count() <= scratch.MAX_LANES
    monkeypatch.setenv(scratch.ENV_LANES, "2")
    assert scratch.lane_count() == 2


def _verdicts(store, run_id) -> dict:
    doc = json.loads(store.artifact_path(run_id, "audit").read_text())
    # each mutant by its site: guard ids are fresh random draws in every audit (#47)
    return {(rid, d["file"], d["description"]): d["result"]
            for rid, entry in doc["requirements"].items() for d in entry["details"]}, doc


@pytest.mark.slow
def test_two_lanes_judge_every_mutant_as_one_lane_does(fresh_todo_run, monkeypatch):
    from harness.audit.run import AuditBudget, audit_run

    store, run_id = fresh_todo_run
    results = {}
    for n in (1, 2):
        monkeypatch.setenv(scratch.ENV_LANES, str(n))
        audit_run(store, store.load(run_id), AuditBudget(), say=lambda _line: None)
        results[n] = _verdicts(store, run_id)
        assert not store.audit_scratch(run_id).exists()
    assert results[1][0] == results[2][0] and len(results[2][0]) >= 8
    assert results[1][1]["lanes"] == 1 and results[2][1]["lanes"] == 2
    assert results[2][1]["baseline"]["status"] == "passed"
    # the box each audit used: never below the configured one, and it let every mutant run here
    assert all(doc["box_s"] >= doc["seconds"] and doc["complete"] for _, doc in results.values())


@pytest.mark.slow
def test_the_verification_worker_serves_the_shared_lane_and_what_the_build_wrote_there_is_gone(tmp_path, monkeypatch):
    """Regression: with the lanes' directory under the verification worker's binds, both lanes
    picked that one worker and two threads shared its socket (each could read the other's reply)."""
    from harness.speed.warm import workers as warm
    from harness.speed.warm_start import prestart_audit_workers
    from harness.state.store import RunStore
    from harness.verification.verifier import verification_env

    monkeypatch.setenv(scratch.ENV_LANES, "2")
    monkeypatch.setenv(warm.ENV_WARM, "1")
    store = RunStore(tmp_path / "runs")
    run_id = "run_lanes"
    workspace = store.workspace(run_id)
    workspace.mkdir(parents=True)
    (workspace / "requirements.txt").write_text("pytest\n")
    env = verification_env(run_id)
    shared = scratch.share_with_verification(store, run_id)
    assert shared == [store.audit_scratch(run_id) / "0", store.audit_scratch(run_id) / "1"]
    assert all(lane.is_dir() for lane in shared)
    try:
        warm.prestart(workspace, env, also=shared)
        (shared[1] / "planted.py").write_text("x = 1\n")      # what generated code could leave there
        created = []
        real_init = warm.WarmWorker.__init__
        monkeypatch.setattr(warm.WarmWorker, "__init__",
                            lambda self, *a, **kw: (created.append(a[0]), real_init(self, *a, **kw))[1])
        prestart_audit_workers(store, run_id)
        assert created == []                                   # every lane is bound: no lane worker starts
        lane0, lane1 = scratch.take_prepared(store, run_id, 2)
        assert not any(lane1.iterdir())                        # emptied, the same directory (still bound)
        own = warm.worker_for(workspace, env)
        twins = [warm.worker_for(lane, env) for lane in (lane0, lane1)]
        assert all(isinstance(t, warm.ClonedWorker) and t.parent is own for t in twins)  # clones serve the lanes
        assert twins[0] is not twins[1] and warm.worker_for(lane0, env) is twins[0]
        assert created == [] and warm.serves(lane0, env) and warm.serves(lane1, env)
    finally:
        warm.stop_workers()
        scratch.release_audit_workers(store, run_id)
    assert not store.audit_scratch(run_id).exists()


def test_lanes_are_filled_from_sources_mutated_once_in_the_calling_thread(tmp_path, monkeypatch):
    """Regression: two lanes ran the AST mutator in two threads at once, and CPython 3.11 raised
    `SystemError: AST constructor recursion depth mismatch` (the full suite caught it once)."""
    from harness.audit import mutator

    workspace = tmp_path / "ws"
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "m.py").write_text("def f(x):\n    return x + 1\n")
    plan = AuditPlan()
    threads = []
    real_apply = mutator.apply

    def recording(source, keys):
        threads.append(threading.current_thread().name)
        return real_apply(source, keys)

    monkeypatch.setattr(scratch, "apply", recording)
    site = mutator.candidates((workspace / "src" / "m.py").read_text())
    assert site
    from harness.audit.plan import Chosen

    plan.chosen[1] = Chosen(id=1, file="src/m.py", mutant=site[0])
    mutated = scratch.mutated_sources(workspace, plan)
    lanes_ = [tmp_path / "lane0", tmp_path / "lane1"]
    workers = [threading.Thread(target=scratch.fill_lane, args=(workspace, lane, mutated)) for lane in lanes_]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert threads == [threading.current_thread().name]   # parsed once, here
    assert all((lane / "src" / "m.py").read_text() == mutated["src/m.py"] for lane in lanes_)
    assert "__harness_mutant__" in mutated["src/m.py"]


def test_a_plan_with_fewer_lanes_takes_the_first_prepared_ones_and_keeps_their_workers(tmp_path, monkeypatch):
    """Regression: a one-requirement plan (one lane) found two prepared lane directories, rejected
    them, and cleared the scratch directory — stopping the prestarted worker it then had to restart."""
    from harness.state.store import RunStore

    monkeypatch.setenv(scratch.ENV_LANES, "2")
    store, run_id = RunStore(tmp_path / "runs"), "run_fewer"
    store.audit_scratch(run_id).mkdir(parents=True)
    for lane in scratch.lane_dirs(store, run_id, 2):
        lane.mkdir()
    scratch._PREPARED.add(str(store.audit_scratch(run_id).resolve()))
    assert scratch.take_prepared(store, run_id, 1) == [store.audit_scratch(run_id) / "0"]
    assert scratch.take_prepared(store, run_id, 1) is None  # taken once
