"""`pytest --harness-run <id>`: re-verify a stored workspace in a fresh subprocess, then re-review."""

from __future__ import annotations

from pathlib import Path

from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, RunDataError
from harness.state.store import RunStore
from harness.trace.matrix import WORKSPACE_EVIDENCE


def reverify_run(run_id: str, runs_dir: Path, say=print) -> int:
    """Run the workspace suite (cwd = rootdir = workspace), refresh evidence, matrix and review.

    Returns 0 only when every requirement of the run's spec is PASS (the CI gate).
    """
    from harness.trace.matrix import format_matrix
    from harness.trace.review_stage import review_run
    from harness.utils.events import EventLog
    from harness.verification.verifier import verify_workspace

    store = RunStore(runs_dir)
    with store.lock(run_id):
        state = store.load(run_id)
        if state.spec is None:
            raise RunDataError(f"run {run_id} has no spec; nothing to verify")
        workspace = store.workspace(run_id)
        if not workspace.is_dir():
            raise RunDataError(f"{workspace}: the run's workspace is missing")
        reqs = [r.id for r in state.spec.requirements]
        result = verify_workspace(workspace, evidence_path=store.run_dir(run_id) / WORKSPACE_EVIDENCE,
                                  reqs=reqs, run_id=run_id, evidence_rel=WORKSPACE_EVIDENCE)
        batch = max((r.batch for r in state.verification_results), default=0) + 1
        result.batch = batch
        state.verification_results.append(result)
        store.write_artifact(run_id, "verification", {
            "schema_version": 1, "run_id": run_id,
            "results": [r.model_dump(mode="json") for r in state.verification_results]})
        matrix, report = review_run(store, state)
        store.save(state)
        EventLog(store.run_dir(run_id) / "events.log", state.run_id, state.trace_id).emit(
            "verify", result.status, agent="pytest --harness-run", tool=result.command,
            duration_ms=result.duration_ms)
    say(f"harness-run {run_id}: {result.command} → exit_code {result.exit_code}")
    say(format_matrix(matrix))
    for r in report.requirements:
        say(f"{r.id}: {r.status}" + (f" — {'; '.join(r.missing)}" if r.missing else ""))
    verified = all(r["status"] == "PASS" for r in matrix["requirements"]) and not matrix["problems"]
    say(f"HARNESS RUN {'PASS' if verified else 'FAIL'}: {matrix['passed']}/{matrix['total']} requirements")
    return EXIT_OK if verified else EXIT_BUILD_FAILED
