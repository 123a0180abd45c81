"""VERIFY adopts an earlier whole-suite run only when it is evidence of the final workspace state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.models.results import VerificationResult
from harness.verification.evidence_inputs import NO_DIGEST, document_digest
from harness.verification.reuse import adopt, is_whole_suite, reusable_suite_run
from pytest_harness.snapshot import snapshot_files

RUN = "run_reuse"
REQS = ["REQ-001", "REQ-002"]
REQ_FILES = {"REQ-001": ["src/a.py"], "REQ-002": ["src/a.py", "src/b.py"]}
SOURCE_REL = "evidence/TASK-002-b002-1.json"


def _setup(tmp_path: Path, command: str = "python -m pytest -q", **overrides):
    ws = tmp_path / "workspace"
    (ws / "src").mkdir(parents=True)
    (ws / "tests").mkdir()
    (ws / "src" / "a.py").write_text("A = 1\n")
    (ws / "src" / "b.py").write_text("B = 2\n")
    (ws / "tests" / "test_a.py").write_text("def test_a():\n    assert True\n")
    run_dir = tmp_path / "run"
    (run_dir / "evidence").mkdir(parents=True)
    doc = {"complete": True, "run_id": RUN, "snapshot": snapshot_files(ws),
           "requirements": {rid: {"files": files, "status": "verified"} for rid, files in REQ_FILES.items()}}
    doc.update(overrides.pop("doc", {}))
    path = run_dir / SOURCE_REL
    path.write_text(json.dumps(doc, sort_keys=True))
    result = VerificationResult(task_id="TASK-002", status="PASS", command=command, exit_code=0, duration_ms=1234,
                                evidence_path=SOURCE_REL, evidence_digest=document_digest(path), runner="warm",
                                batch=2, stdout="3 passed")
    result = result.model_copy(update=overrides)
    return ws, run_dir, path, result


def _reusable(results, run_dir, ws, reqs=REQS, req_files=REQ_FILES, run_id=RUN):
    return reusable_suite_run(results, run_dir, ws, run_id=run_id, reqs=reqs, req_files=req_files)


def test_an_identical_passing_whole_suite_run_on_unchanged_files_is_reused(tmp_path):
    ws, run_dir, path, result = _setup(tmp_path)
    earlier = _reusable([result], run_dir, ws)
    assert earlier == (result, path)
    target = run_dir / "evidence" / "workspace.json"
    adopted = adopt(*earlier, target, "evidence/workspace.json")
    assert target.read_bytes() == path.read_bytes()
    assert (adopted.task_id, adopted.command, adopted.evidence_path, adopted.reused_from, adopted.runner) == (
        "WORKSPACE", "pytest -q", "evidence/workspace.json", SOURCE_REL, "warm")
    assert adopted.evidence_digest == document_digest(target) and adopted.duration_ms == 0


@pytest.mark.parametrize("change", ["modified", "added", "removed"])
def test_a_file_changed_since_the_run_means_the_suite_runs_again(tmp_path, change):
    ws, run_dir, _path, result = _setup(tmp_path)
    if change == "modified":
        (ws / "src" / "b.py").write_text("B = 3\n")
    elif change == "added":
        (ws / "tests" / "conftest.py").write_text("")
    else:
        (ws / "src" / "b.py").unlink()
    assert _reusable([result], run_dir, ws) is None


def test_a_document_edited_after_the_session_is_not_reused(tmp_path):
    ws, run_dir, path, result = _setup(tmp_path)
    path.write_text(path.read_text().replace('"complete": true', '"complete": true '))
    assert _reusable([result], run_dir, ws) is None


@pytest.mark.parametrize("update", [{"status": "FAIL", "exit_code": 1}, {"timed_out": True},
                                    {"evidence_digest": NO_DIGEST}, {"evidence_digest": None},
                                    {"command": "python -m pytest -q tests/test_a.py"},
                                    {"command": "pytest -q -k a"}])
def test_only_a_passing_digest_checked_whole_suite_run_qualifies(tmp_path, update):
    ws, run_dir, _path, result = _setup(tmp_path, **update)
    assert _reusable([result], run_dir, ws) is None


@pytest.mark.parametrize("doc", [{"complete": False}, {"run_id": "run_other"}])
def test_an_incomplete_or_foreign_document_is_not_reused(tmp_path, doc):
    ws, run_dir, _path, result = _setup(tmp_path, doc=doc)
    assert _reusable([result], run_dir, ws) is None


def test_other_requirement_inputs_mean_the_suite_runs_again(tmp_path):
    ws, run_dir, _path, result = _setup(tmp_path)
    assert _reusable([result], run_dir, ws, reqs=["REQ-001"]) is None
    assert _reusable([result], run_dir, ws, req_files={**REQ_FILES, "REQ-002": ["src/b.py"]}) is None


def test_a_run_that_is_not_the_latest_result_is_not_reused(tmp_path):
    ws, run_dir, _path, result = _setup(tmp_path)
    later = VerificationResult(task_id="TASK-003", status="PASS", command="pytest -q tests/test_a.py", exit_code=0)
    assert _reusable([result, later], run_dir, ws) is None
    assert _reusable([], run_dir, ws) is None


def test_whole_suite_means_exactly_pytest_dash_q():
    assert is_whole_suite("pytest -q") and is_whole_suite("python -m pytest -q")
    assert not is_whole_suite("pytest -q tests") and not is_whole_suite("pytest") and not is_whole_suite("pytest '-q")


@pytest.mark.slow
def test_the_todo_build_verifies_its_workspace_with_the_last_tasks_identical_suite_run(todo_run):
    store, ctx = todo_run
    results = ctx.state.verification_results
    workspace = [r for r in results if r.task_id == "WORKSPACE"][-1]
    source = results[results.index(workspace) - 1]
    assert workspace.reused_from == source.evidence_path and is_whole_suite(source.command)
    assert store.workspace_evidence(ctx.run_id).read_bytes() == (store.run_dir(ctx.run_id) / source.evidence_path).read_bytes()
    assert store.read_matrix(ctx.run_id).coverage_pct == 100.0


@pytest.mark.slow
def test_a_file_changed_after_the_build_makes_verify_run_the_suite_again(fresh_todo_run):
    from harness.orchestration.context import RunContext
    from harness.orchestration.steps import verify_workspace_step
    from harness.providers.mock import MockProvider
    from harness.sandbox.warm import stop_workers

    store, run_id = fresh_todo_run
    ctx = RunContext(store=store, state=store.load(run_id), llm=MockProvider(), say=lambda _line: None)
    with (ctx.workspace / "src" / "models.py").open("a") as f:
        f.write("\n# changed after the build\n")
    try:
        again = verify_workspace_step(ctx)
    finally:
        stop_workers(ctx.workspace)
    assert again.reused_from is None and again.runner in ("warm", "cold") and again.status == "PASS"
    doc = json.loads(store.workspace_evidence(run_id).read_text())
    assert doc["snapshot"] == snapshot_files(ctx.workspace)
