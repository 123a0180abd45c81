"""Judging a run from its persisted evidence: matrix.json, review.json and requirements/REQ-*.json.

`judge` is the one computation every judge shares (fresh hashes included); `write_judgement`
persists its result. An optional `annotate` callable (the LLM reviewer, wired in by orchestration)
may add notes; it receives a copy and cannot change a status.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness.models.results import ReviewReport, VerificationResult
from harness.models.run import RunState
from harness.models.trace import TraceMatrix
from harness.state.store import RunStore
from harness.trace.coverage import format_coverage, request_coverage
from harness.trace.matrix import build_matrix
from harness.trace.verdict import decide
from harness.sandbox.local import LocalSandbox

Annotate = Callable[[TraceMatrix, ReviewReport], list[str]]


def compute_matrix(store: RunStore, state: RunState) -> TraceMatrix:
    """The matrix of the run as its files are now (hashes recomputed against the evidence), with the
    mutation audit of that evidence when there is one."""
    from harness.audit.run import current_audit

    evidence = store.read_workspace_evidence(state.run_id)
    audit = current_audit(store, state.run_id, evidence)
    matrix = build_matrix(state.spec, state.plan.tasks if state.plan else [], state.task_results,
                          state.verification_results, evidence, store.workspace(state.run_id), state.runtime,
                          audit=audit, adopted=state.adopted_files)
    if audit_unfinished(state, evidence, store.read_audit(state.run_id)):
        matrix.problems.append(f"the mutation audit did not finish: `builder resume {state.run_id}` "
                               f"or `builder audit {state.run_id}` completes it")
    return matrix


def audit_unfinished(state: RunState, evidence: dict | None, audit: dict | None) -> bool:
    """True when the run was to be audited (not --no-audit), its evidence is complete, and it has
    no audit.json at all (its audit was interrupted): no judge may then say PASS. (An audit of an
    earlier version of the code stays: it is only left out of the matrix, see current_audit.)"""
    return bool(state.options.audit and evidence and evidence.get("complete") and not audit)


def judge(store: RunStore, state: RunState, annotate: Annotate | None = None) -> tuple[TraceMatrix, ReviewReport]:
    """(matrix, review): the rule-based verdict of the run, plus any annotation notes."""
    matrix = compute_matrix(store, state)
    runtime = state.runtime
    report = decide(matrix, runtime.status if runtime and runtime.status != "SKIPPED" else None)
    report.isolation = (store.read_workspace_evidence(state.run_id) or {}).get("isolation")
    report.coverage = request_coverage(state.spec, matrix)
    if not report.coverage["complete"]:   # BUILD COMPLETE means every asking clause was built and verified
        report.overall_status = "FAIL"
    if annotate is not None:
        report.notes += annotate(matrix.model_copy(deep=True), report.model_copy(deep=True))
    return matrix, report


def requirement_reports(store: RunStore, state: RunState, matrix: TraceMatrix) -> list[Path]:
    """Write requirements/REQ-NNN.json: text, status, tests, files+hashes, commands, missing."""
    ws = store.workspace(state.run_id)
    evidence = store.read_workspace_evidence(state.run_id) or {}
    from harness.audit.run import current_audit

    audit = (current_audit(store, state.run_id, evidence) or {}).get("requirements", {})
    latest: dict[tuple[str, str], VerificationResult] = {}
    for r in state.verification_results:
        latest[(r.task_id, r.command)] = r
    paths = []
    for row in matrix.requirements:
        report = {
            "schema_version": 1, "run_id": state.run_id, "id": row.id, "text": row.text,
            "status": row.status, "missing": row.missing, "tasks": row.tasks,
            "tests": {n: evidence.get("tests", {}).get(n, {}) for n in row.tests},
            "files": {f: LocalSandbox(ws).hash_file(f) for f in row.files},
            "commands": [{"task_id": t, "command": c, "exit_code": r.exit_code, "status": r.status}
                         for (t, c), r in sorted(latest.items()) if t in row.tasks],
            "runtime": row.runtime,
            "white_box": {"tested": row.tested, "tests": len(row.tests)},
            "black_box": {"line": row.black_box, "checks": [
                c.model_dump() for c in (state.runtime.acceptance or []) if c.requirement == row.id]
                if state.runtime is not None else []},
            "mutation": audit.get(row.id),
        }
        paths.append(store.write_json(store.requirement_report(state.run_id, row.id), report))
    return paths


def write_judgement(store: RunStore, state: RunState, matrix: TraceMatrix, report: ReviewReport) -> None:
    """Persist matrix.json, review.json and the per-requirement reports; the state carries the review."""
    store.write_artifact(state.run_id, "matrix", matrix)
    store.write_artifact(state.run_id, "review", report)
    requirement_reports(store, state, matrix)
    state.review = report


def review_run(store: RunStore, state: RunState, annotate: Annotate | None = None) -> tuple[TraceMatrix, ReviewReport]:
    """Recompute the matrix (hashes included), decide, write matrix/review/per-REQ reports, update state."""
    matrix, report = judge(store, state, annotate)
    write_judgement(store, state, matrix, report)
    return matrix, report


def format_summary(report: ReviewReport) -> str:
    """The end-of-run summary of SPEC §9, one block per requirement."""
    yes = {True: "YES", False: "NO", None: "NOT RUN"}
    blocks = []
    for r in report.requirements:
        lines = [r.id + (f"  {r.text}" if r.text else ""), f"Implemented: {yes[r.implemented]}",
                 f"Tested: {yes[r.tested]} (white-box: its own tests, inside the app's process)",
                 f"Runtime: {yes[r.runtime]}", (r.black_box or "Black-box: not run") + " (outside: the harness's HTTP checks)",
                 "Evidence:"]
        lines += [f"- {e}" for e in r.evidence[:6]] or ["- none"]
        if r.missing:
            lines.append("Missing:")
            lines += [f"- {m}" for m in r.missing[:6]]
        lines.append(f"Status: {r.status}")
        blocks.append("\n".join(lines))
    rules = [n.removeprefix("rule: ") for n in report.notes if n.startswith("rule: ")]
    if rules:   # why the run FAILs beyond its rows (evidence problems, an unfinished audit)
        blocks.append("\n".join(["Problems:", *(f"- {r}" for r in rules[:6])]))
    if report.isolation:
        blocks.append(f"Isolation: {report.isolation}")
    if report.coverage:
        blocks.append(format_coverage(report.coverage))
    return "\n\n".join(blocks)
