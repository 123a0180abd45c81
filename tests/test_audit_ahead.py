"""#19: the mutation audit starts beside the runtime check (harness/speed/audit_ahead.py); the AUDIT stage
takes its result only when it audited the run's latest evidence, and raises what it raised."""

import json
from types import SimpleNamespace

import pytest

from harness.speed import audit_ahead as ahead
from harness.audit.run import AuditBudget, _decoy_note
from harness.errors import RunDataError
from harness.orchestration.audit_stage import _taken


# What the audit found does not matter after the first take, only when it ran: one mutant a requirement.
ONE_MUTANT = AuditBudget(max_mutants=1)


def _ctx(store, run_id):
    said: list[str] = []
    from harness.speed.door import Speed

    return SimpleNamespace(store=store, run_id=run_id, say=said.append, speed=Speed()), said


@pytest.mark.slow
def test_the_audit_stage_takes_the_audit_started_ahead_only_for_the_latest_evidence(fresh_todo_run):
    store, run_id = fresh_todo_run
    store.artifact_path(run_id, "audit").unlink()
    ahead.start(store, store.load(run_id), AuditBudget(max_mutants=2))
    ctx, said = _ctx(store, run_id)
    doc = _taken(ctx)
    assert doc == json.loads(store.artifact_path(run_id, "audit").read_text())
    assert doc["method"] == "confirm" and all(r["killed"] >= 1 for r in doc["requirements"].values())
    assert [line for line in said if line.startswith("  audit REQ-")] == [
        f"  audit {rid}: {r['killed']}/{r['mutants']} mutants killed{_decoy_note(r)}" for rid, r in doc["requirements"].items()]
    assert ahead.take(run_id) is None                  # taken once

    ahead.start(store, store.load(run_id), ONE_MUTANT)
    ahead.wait(run_id)                                 # finished and forgotten: nothing to take
    assert _taken(_ctx(store, run_id)[0]) is None
    ahead.start(store, store.load(run_id), ONE_MUTANT)
    path = store.workspace_evidence(run_id)
    newer = json.loads(path.read_text())
    newer["snapshot"]["digest"] = "sha256:" + "0" * 64     # the evidence moved on meanwhile
    ahead._AHEAD[run_id].wait()
    path.write_text(json.dumps(newer))
    assert _taken(_ctx(store, run_id)[0]) is None


@pytest.mark.slow
def test_what_the_audit_started_ahead_raised_is_raised_by_the_audit_stage(fresh_todo_run):
    store, run_id = fresh_todo_run
    path = store.workspace_evidence(run_id)
    doc = json.loads(path.read_text())
    doc["complete"] = False
    path.write_text(json.dumps(doc))
    ahead.start(store, store.load(run_id), AuditBudget())
    with pytest.raises(RunDataError, match="no complete workspace evidence"):
        _taken(_ctx(store, run_id)[0])
