"""Everything the report shows, read from one run directory (reads only; nothing is written)."""

from __future__ import annotations

from harness.state.store import RunStore
from harness.utils.events import read_events


def _clauses(spec) -> list[dict]:
    return [c.model_dump(mode="json") for c in spec.clauses] if spec is not None else []


def _stopped_clauses(store: RunStore, state) -> list:
    from harness.offline.accounting.show import run_clauses

    return run_clauses(store, state) if state.spec is None else []


def collect(store: RunStore, run_id: str) -> dict:
    """The report's data: run, clauses, requirements, matrix, evidence, events, runtime, escalations.

    A missing artifact is None (the page says so); a corrupt JSON artifact is a RunDataError.
    """
    from harness.trace.shown_verdict import shown_verdict

    state = store.checked(run_id)   # validated as `builder status` does: a contradictory run is exit 3
    shown = shown_verdict(store, state)   # a stored PASS is shown only when judging now confirms it
    spec = state.spec
    requirements = [{"id": r.id, "text": r.text} for r in (spec.requirements if spec else [])]
    return {
        "run": {"id": state.run_id, "status": shown.status, "status_reason": shown.reason,
                "request": state.user_request,
                "created": state.created_at, "updated": state.updated_at, "error": state.error,
                "llm_calls": state.llm_calls, "llm_tokens": state.llm_tokens},
        "clauses": _clauses(spec) or [c.model_dump(mode="json") for c in _stopped_clauses(store, state)],
        "spec_failed": spec is None and state.status.value == "FAIL",   # BUILD FAILED at the spec stage
        "requirements": requirements,
        "tasks": [{"id": t.id, "description": t.description} for t in (state.plan.tasks if state.plan else [])],
        "statuses": {task: status.value for task, status in state.task_results.items()},
        "repairs": dict(state.repair_attempts),
        "matrix": (shown.matrix.model_dump(mode="json") if shown.matrix is not None
                   else store.read_artifact(run_id, "matrix")),
        "evidence": store.read_workspace_evidence(run_id),
        "requirement_reports": {r["id"]: store.read_json(store.requirement_report(run_id, r["id"]))
                                for r in requirements},
        "events": read_events(store.events_path(run_id)),
        "runtime": store.read_artifact(run_id, "runtime"),
        "failures": [{"path": store.relative(run_id, path), "report": store.read_json(path)}
                     for path in store.failure_reports(run_id)],
    }
