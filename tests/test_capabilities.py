"""SPEC M12 Gate 3: the capability checklist, asserted by running the real pipeline."""

import json

from harness.models import AppSpec, ReviewReport
from harness.models.enums import FailureType, TaskStatus
from harness.state.checkpoints import CheckpointLog
from harness.utils.events import read_events
from harness.utils.fileio import sha256_file
from harness.validation.plan_validator import validate_plan
from harness.validation.spec_validator import validate_spec
from run_copies import source_files


def test_valid_spec_and_valid_dag(todo_run):
    store, ctx = todo_run
    spec = AppSpec.model_validate_json(store.artifact_path(ctx.run_id, "spec").read_text())
    assert validate_spec(spec) == [] and len(spec.requirements) >= 3
    assert validate_plan(ctx.state.plan.tasks, spec) == [] and len(ctx.state.plan.tasks) >= 3


def test_sequential_execution_one_task_at_a_time(todo_run):
    store, ctx = todo_run
    events = [e for e in read_events(store.run_dir(ctx.run_id) / "events.log")
              if e["stage"] == "build" and e["task_id"] and e["status"] in ("started", "COMPLETED", "FAILED")]
    running = None
    for e in events:
        if e["status"] == "started":
            assert running is None, f"{e['task_id']} started while {running} was running"
            running = e["task_id"]
        else:
            assert running == e["task_id"]
            running = None
    assert running is None


def test_real_files_and_real_verification(todo_run):
    store, ctx = todo_run
    ws = store.workspace(ctx.run_id)
    for task in ctx.state.plan.tasks:
        for rel, digest in ctx.state.file_hashes[task.id].items():
            assert sha256_file(ws / rel) == digest
    results = ctx.state.verification_results
    executed = [r for r in results if r.reused_from is None]
    assert executed and all(r.exit_code == 0 and r.duration_ms > 0 for r in executed)
    for r in results:   # a reused result adopts an executed run of the identical command on the same files
        if r.reused_from is not None:
            source = next(e for e in executed if e.evidence_path == r.reused_from)
            assert r.exit_code == 0 and r.evidence_digest == source.evidence_digest
            assert {r.command, source.command} <= {"pytest -q", "python -m pytest -q"}
    paths = [r.evidence_path for r in results]
    assert len(set(paths)) == len(paths), "each verification keeps its own evidence document"
    for r in results:
        doc = json.loads((store.run_dir(ctx.run_id) / r.evidence_path).read_text())
        assert doc["complete"] and doc["session"]["exitstatus"] == 0


def test_checkpoints_traceability_review_runtime_and_final_project(todo_run):
    store, ctx = todo_run
    run = store.run_dir(ctx.run_id)
    names = CheckpointLog(run / "checkpoints").names()
    events = {n.split("-")[1].split(".")[0] for n in names}
    assert {"spec_created", "plan_created", "task_started", "task_completed", "verification_completed",
            "review_completed"} <= events
    matrix = json.loads((run / "matrix.json").read_text())
    assert matrix["coverage_pct"] == 100.0
    assert all(row["tasks"] and row["files"] and row["tests"] for row in matrix["requirements"])
    review = ReviewReport.model_validate_json((run / "review.json").read_text())
    assert review.overall_status == "PASS"
    assert ctx.state.runtime.status == "PASS"
    assert (run / "workspace" / "src" / "main.py").exists()


def test_failures_localized_classified_repaired_and_bounded(repaired_inject_run):
    """The shared `builder inject ... syntax-error --file src/main.py` (conftest.py: repaired_inject_run,
    which test_inject_cli.py reads too; it is inject_and_repair with the generator as the repairer)."""
    injected = repaired_inject_run
    store, run_id = injected.store, injected.run_id
    ws = store.workspace(run_id)
    state = store.load(run_id)
    owner = next(t for t in state.plan.tasks if "src/main.py" in t.files_touched)
    failing = [r for r in state.verification_results if r.task_id == owner.id and r.status == "FAIL"]
    assert failing and failing[0].failure_type == FailureType.CODE_ERROR
    assert failing[0].diagnostics.get("file") == "src/main.py"
    assert state.task_results[owner.id] == TaskStatus.COMPLETED
    assert 1 <= state.repair_attempts[owner.id] <= 3
    after = source_files(ws)
    assert after == injected.before_files  # repaired back to the generated file, nothing else touched
    assert state.review.overall_status == "PASS"


def test_loop_detection_escalates_and_blocks_dependents(looped_inject_run):
    """The shared inject with --no-op-repair (conftest.py: looped_inject_run)."""
    store, run_id = looped_inject_run.store, looped_inject_run.run_id
    state = store.load(run_id)
    owner = next(t for t in state.plan.tasks if "src/main.py" in t.files_touched)
    assert state.task_results[owner.id] == TaskStatus.FAILED
    assert state.repair_attempts[owner.id] <= 3
    dependents = [t.id for t in state.plan.tasks if owner.id in t.depends_on]
    assert dependents and all(state.task_results[d] == TaskStatus.BLOCKED for d in dependents)
    report = json.loads((store.run_dir(run_id) / "failures" / f"{owner.id}.json").read_text())
    assert report["reason"].startswith("LOOP DETECTED") and max(report["signatures"].values()) == 3
    assert state.review.overall_status == "FAIL"


def test_crash_resume_does_not_rerun_completed_tasks(resumed_crashed_run):
    """A really SIGKILLed `builder new` finished by a real `builder resume` (shared with test_resume.py)."""
    crash = resumed_crashed_run
    assert crash.new.returncode == -9
    hashes = crash.before["state"]["file_hashes"]
    assert set(hashes) == {"TASK-001", "TASK-002"}
    assert crash.first.returncode == 0 and crash.after["state"]["review"]["overall_status"] == "PASS"
    starts = [e["task_id"] for e in crash.after["events"] if e["stage"] == "build" and e["status"] == "started"]
    assert starts.count("TASK-001") == starts.count("TASK-002") == 1
    assert crash.after["state"]["file_hashes"]["TASK-001"] == hashes["TASK-001"]
    assert crash.after["state"]["file_hashes"]["TASK-002"] == hashes["TASK-002"]
