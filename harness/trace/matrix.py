"""The traceability matrix: per requirement, what exists, what ran, what passed, what is missing."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from harness.models.enums import TaskStatus
from harness.models.results import RuntimeResult, VerificationResult
from harness.models.spec import AppSpec
from harness.models.tasks import Task
from harness.models.trace import MatrixRow, TraceMatrix
from harness.acceptance.legs import leg, leg_line
from harness.trace import evidence_checks
from harness.trace.verdict import row_status
from harness.verification.carry_inputs import carry_note
from harness.utils.workspace_layout import implementation_files, is_test_file

FINAL_SUITE = "WORKSPACE"   # the task id of the final whole-suite run (harness/verification/verifier.py)


def final_suite_line(r) -> str:
    """`pytest -q → exit_code 0 (final suite: 60 tests, every one run)`; a suite that was the last
    task's own session on the same bytes (harness/speed/task_suite.py) names that session's document."""
    ran = f"{r.carried} carried" if r.carried else "every one run"
    where = f", in the session of {r.reused_from}" if r.reused_from else ""
    return f"{r.command} → exit_code {r.exit_code} (final suite: {r.tests} tests, {ran}{where})"


def stale_files(evidence: dict | None, workspace: Path) -> list[str]:
    """Files whose current hash differs from the evidence snapshot (added, removed or changed)."""
    from pytest_harness.snapshot import changed_files, snapshot_files

    if not evidence or "snapshot" not in evidence:
        return []
    return changed_files(evidence["snapshot"].get("files", {}), snapshot_files(workspace)["files"])


def _latest_results(results: list[VerificationResult]) -> dict[str, list[VerificationResult]]:
    """The results of each task's most recent verification attempt."""
    latest: dict[str, list[VerificationResult]] = {}
    for r in results:
        if r.task_id not in latest or r.batch != latest[r.task_id][-1].batch:
            latest[r.task_id] = []
        latest[r.task_id].append(r)
    return latest


def requirement_row(req, tasks: list[Task], statuses: dict, latest: dict, evidence: dict | None,
                    stale: list[str], workspace: Path, runtime: RuntimeResult | None,
                    voided: list[str] = (), owned: set[str] | None = None, audit: dict | None = None) -> MatrixRow:
    """One matrix row; status PASS only on complete, fresh, passing evidence."""
    mine = [t for t in tasks if req.id in t.requirements]
    files = sorted({f for t in mine for f in t.files_touched})
    impl = implementation_files(files) or [f for f in files if not is_test_file(f)]
    ev_req = (evidence or {}).get("requirements", {}).get(req.id, {})
    tests = list(ev_req.get("tests", []))
    commands = sorted({c for t in mine for c in t.verification})
    missing, proof = [], []
    if req.capability == "unsupported":
        missing.append(f'offline generator cannot implement: "{req.text}"')
    if not mine:
        missing.append(f"no task covers {req.id}")
    for f in impl:
        if (workspace / f).is_file():
            proof.append(f)
        else:
            missing.append(f"{f} missing")
    for t in mine:
        st = statuses.get(t.id, TaskStatus.PENDING)
        runs = latest.get(t.id, [])
        if st != TaskStatus.COMPLETED:
            missing.append(f"{t.id} is {st.value if hasattr(st, 'value') else st}")
        elif not runs or any(r.status != "PASS" for r in runs):
            missing.append(f"{t.id} verification did not pass")
        for r in runs:
            if r.status == "PASS" and st == TaskStatus.COMPLETED:
                proof.append(f"{r.command} → exit_code {r.exit_code}{carry_note(r)}")
    if tests:   # the verdict's own run: the final whole suite, every test executed (#46)
        proof += [final_suite_line(r) for r in latest.get(FINAL_SUITE, []) if r.status == "PASS"]
    missing += [*voided, *_evidence_missing(req.id, ev_req, evidence, tests)]
    missing += evidence_checks.mutation_lines(audit, req.id)
    missing += evidence_checks.unaudited_lines(audit, req.id, ev_req, evidence)
    if evidence and ev_req.get("status") == "verified":
        entries = evidence.get("tests", {})
        proof += [f"{n} passed" + (f" (carried from {entries[n]['carried_from']})" if entries[n].get("carried_from") else "")
                  for n in tests if entries.get(n, {}).get("outcome") == "passed"]
    mutation = evidence_checks.mutation_figure(audit, req.id)
    if mutation and mutation["killed"]:
        proof.append(f"mutation audit: {mutation['killed']}/{mutation['total']} mutants killed")
    touched = set(files) | {n.split("::")[0] for n in tests}
    hits = evidence_checks.affected_stale(stale, touched, owned if owned is not None else set(stale))
    for f in hits:
        missing.append(f"evidence stale: {f} changed after verification")
    if runtime is not None and runtime.status == "FAIL":
        missing.append("runtime check failed")
    black_box = leg(runtime, req.id)   # the outside leg: PASS needs it as well as the tests (#47)
    if black_box is not None:
        missing += black_box.missing(req.id)
        if black_box.status == "PASS":
            proof.append(leg_line(black_box))
    return MatrixRow(id=req.id, text=req.text, tasks=[t.id for t in mine], files=files, tests=tests,
                     commands=commands, evidence=proof, status=row_status(missing), missing=missing,
                     implemented=bool(impl) and all((workspace / f).is_file() for f in impl),
                     tested=ev_req.get("status") == "verified" and not hits and not voided,
                     runtime=None if runtime is None else runtime.status == "PASS", mutation=mutation,
                     black_box=None if black_box is None else leg_line(black_box))


def _evidence_missing(rid: str, ev_req: dict, evidence: dict | None, tests: list[str]) -> list[str]:
    if evidence is None:
        return ["no evidence document: the workspace was not verified"]
    if not evidence.get("complete"):
        return ["evidence incomplete: the verification run did not finish"]
    status = ev_req.get("status", "uncovered")
    if status in ("verified", "untrusted"):  # untrusted: the forgery lines say why
        return []
    if status == "weak":
        return evidence_checks.weak_lines(rid, ev_req)
    if status == "failing":
        bad = [n for n in tests if evidence.get("tests", {}).get(n, {}).get("outcome") in ("failed", "error", "timeout")]
        return [f"failing test marked {rid}: {n}" for n in bad] or [f"failing tests marked {rid}"]
    broken = [e.get("nodeid") or "?" for e in evidence.get("collection_errors", [])]
    if broken and status in ("not_run", "uncovered"):
        return [f"tests could not be collected: {', '.join(broken)}"]
    if status == "not_run":
        return [f"tests marked {rid} were skipped or not run"]
    return [f"no passing test marked {rid}"]


def build_matrix(spec: AppSpec, tasks: list[Task], statuses: dict, results: list[VerificationResult],
                 evidence: dict | None, workspace: Path, runtime: RuntimeResult | None = None,
                 audit: dict | None = None, adopted: Iterable[str] = ()) -> TraceMatrix:
    """The whole matrix (rows, coverage, problems) from the plan, the statuses and the evidence.
    `adopted`: files the user made part of the build (`builder adopt`); they are not "unowned", but a
    change to one after verification still voids every requirement (no task says which it affects)."""
    from pytest_harness.snapshot import snapshot_files

    from harness.state.layout import WORKSPACE_EVIDENCE

    stale = stale_files(evidence, workspace)
    latest = _latest_results(results)
    owned = {f for t in tasks for f in t.files_touched}
    unowned = evidence_checks.unowned_files(snapshot_files(workspace)["files"], owned | set(adopted)) if tasks else []
    voided = evidence_checks.document_problems(evidence, results, WORKSPACE_EVIDENCE)
    voided += [f"evidence stale: {f} is not part of the build (no task owns it; if you added it: "
               f"`builder adopt <run> {f}`, then re-verify)" for f in unowned if f not in stale]
    rows = [requirement_row(r, tasks, statuses, latest, evidence, stale, workspace, runtime, voided, owned, audit)
            for r in spec.requirements]
    passed = sum(1 for r in rows if r.status == "PASS")
    problems = []
    if evidence:
        problems += [f"unknown requirement id in a marker: {x}" for x in evidence.get("unknown_requirement_ids", [])]
        problems += [f"bad req marker: {x['nodeid']}: {x['error']}: {x['value']!r}"
                     for x in evidence.get("marker_errors", [])
                     if x.get("value") not in evidence.get("unknown_requirement_ids", [])]
    return TraceMatrix(requirements=rows, passed=passed, total=len(rows),
                       coverage_pct=round(100.0 * passed / len(rows), 1) if rows else 0.0,
                       stale_files=stale, problems=problems,
                       evidence_digest=(evidence or {}).get("snapshot", {}).get("digest"))


def _legs(row: MatrixRow) -> tuple[str, str]:
    """(white-box, black-box) of a row: its own tests verified; the harness's HTTP checks passed."""
    black = "-" if row.black_box is None else ("YES" if row.black_box.startswith("Black-box: YES") else "NO")
    return ("YES" if row.tested else "NO"), black


def format_matrix(matrix: TraceMatrix) -> str:
    """A readable table: REQ | status | white-box | black-box | tasks | tests | missing (one per line)."""
    rows = matrix.requirements
    width = max([len("TASKS")] + [len(",".join(r.tasks)) for r in rows])
    lines = [f"{'REQ':<8} {'STATUS':<6} {'WHITE':<5} {'BLACK':<5} {'TASKS':<{width}} {'TESTS':>5}  MISSING"]
    pad = " " * (8 + 1 + 6 + 1 + 6 + 6 + width + 1 + 5 + 2)
    for row in rows:
        missing = row.missing or [""]
        white, black = _legs(row)
        lines.append(f"{row.id:<8} {row.status:<6} {white:<5} {black:<5} {','.join(row.tasks):<{width}} "
                     f"{len(row.tests):>5}  {missing[0]}".rstrip())
        lines += [pad + m for m in missing[1:]]
    lines.append(f"coverage: {matrix.passed}/{matrix.total} requirements PASS ({matrix.coverage_pct}%)"
                 " — WHITE: its own tests verified; BLACK: the harness's HTTP acceptance checks passed")
    lines += [f"problem: {p}" for p in matrix.problems]
    return "\n".join(lines)
