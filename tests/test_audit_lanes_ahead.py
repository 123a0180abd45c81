"""#19: the audit's lanes started beside the last task's session (harness/speed/lanes_ahead.py).

They hold every executed candidate mutant behind its guard and wait for the plan; the audit uses
them only for exactly the evidenced workspace, with the same verdicts as lanes started after it,
and otherwise gives them up (their sessions end) and runs as before."""

import json
from types import SimpleNamespace

import pytest

from harness.speed import lanes_ahead
from harness.audit.plan import make_plan
from harness.audit.run import AuditBudget, audit_run


def _verdicts(doc: dict) -> dict:
    """Per requirement: each judged mutant by where and what it is (ids differ between copies)."""
    return {rid: sorted((d["file"], d["line"], d["kind"], d["description"], d["result"]) for d in r["details"])
            for rid, r in doc["requirements"].items()}


def _evidence(tmp_path):
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "calc.py").write_text("def add(a, b):\n    total = a + b\n    return total\n")
    node = "tests/test_calc.py::test_add"
    evidence = {"requirements": {"REQ-001": {"status": "verified", "files": ["src/calc.py"], "tests": [node]}},
                "tests": {node: {"outcome": "passed", "lines": {"src/calc.py": [2, 3]}, "duration_s": 0.01}}}
    return ws, evidence


def test_a_plan_takes_the_ids_of_the_copy_and_chooses_the_same_mutants(tmp_path):
    ws, evidence = _evidence(tmp_path)
    plain = make_plan(evidence, ws, 4, decoys=0)   # decoys are random draws (decoy_plan.py): below
    ids = {(c.file, c.mutant.key): 100 + n for n, c in enumerate(plain.chosen.values())}
    mapped = make_plan(evidence, ws, 4, ids=ids, decoys=0)
    assert sorted(mapped.chosen) == sorted(ids.values())
    sites = lambda plan: [(rid, plan.chosen[i].file, plan.chosen[i].mutant.key, tests)  # noqa: E731 - in run order
                          for rid, i, tests in plan.order()]
    assert sites(mapped) == sites(plain)   # the plain plan's ids are random draws (#47): compared by site
    with pytest.raises(KeyError):  # a copy without one of the chosen mutants cannot serve the plan
        make_plan(evidence, ws, 4, ids=dict(list(ids.items())[1:]), decoys=0)
    with pytest.raises(KeyError):  # nor one without the decoys the plan draws
        make_plan(evidence, ws, 4, ids=ids)


@pytest.mark.slow
def test_the_build_audits_with_lanes_started_ahead_and_their_verdicts_are_the_usual_ones(fresh_todo_run):
    store, run_id = fresh_todo_run
    built = json.loads(store.artifact_path(run_id, "audit").read_text())
    assert built["lanes_ahead"] is True and built["complete"]
    again = audit_run(store, store.load(run_id), AuditBudget(), say=lambda _line: None)  # lanes started after
    assert again["lanes_ahead"] is False
    assert _verdicts(built) == _verdicts(again)
    assert sum(r["killed"] for r in again["requirements"].values()) >= 4


def _start_ahead(store, run_id):
    from harness.audit.scratch import lane_count, lane_dirs

    for lane in lane_dirs(store, run_id, lane_count()):
        lane.mkdir(parents=True)
    state = store.load(run_id)
    lanes_ahead.start(SimpleNamespace(store=store, state=state, run_id=run_id, audit=AuditBudget()))
    ahead = lanes_ahead._AHEAD[run_id]
    assert ahead.lanes and all(lane.thread.is_alive() for lane in ahead.lanes)
    return ahead


@pytest.mark.slow
def test_lanes_started_before_the_workspace_changed_are_given_up_and_the_audit_runs_as_before(fresh_todo_run):
    store, run_id = fresh_todo_run
    ahead = _start_ahead(store, run_id)
    threads = [lane.thread for lane in ahead.lanes]
    ui = store.workspace(run_id) / "src" / "ui.py"
    ui.write_text(ui.read_text() + "\n# changed after the lanes started\n")
    doc = audit_run(store, store.load(run_id), AuditBudget(), say=lambda _line: None,
                    lanes_ahead=lanes_ahead.take(run_id))   # handed over as the speed door does
    assert doc["lanes_ahead"] is False and doc["complete"]
    assert not any(thread.is_alive() for thread in threads)   # told to end: no session left waiting
    assert lanes_ahead.take(run_id) is None


@pytest.mark.slow
def test_lanes_no_audit_takes_end_with_the_run(fresh_todo_run):
    from harness.speed.door import Speed

    store, run_id = fresh_todo_run
    ahead = _start_ahead(store, run_id)
    threads = [lane.thread for lane in ahead.lanes]
    Speed().cancel(SimpleNamespace(store=store, run_id=run_id, workspace=store.workspace(run_id)))  # the run's end
    assert not any(thread.is_alive() for thread in threads)
    assert lanes_ahead.take(run_id) is None
