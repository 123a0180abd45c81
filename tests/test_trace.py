"""Issue 4: the traceability matrix, `builder review/trace` and `pytest --harness-run` as a CI gate.

Everything runs on the shared offline Todo build (read-only) or on a private copy of it; pytest
always runs for real in subprocesses.
"""

from __future__ import annotations

import json
import sys

from run_copies import cli, copy_run, harness_run, harness_run_in_process, row, strip_markers

from harness.models.enums import TaskStatus
from harness.models.results import ReviewReport, VerificationResult
from harness.trace.matrix import build_matrix, format_matrix
from harness.trace.review_stage import compute_matrix
from pytest_harness import evidence as ev

REQS = ["REQ-001", "REQ-002", "REQ-003", "REQ-004"]


def _matrix(store, state, *, results=None, evidence="load", statuses=None):
    """build_matrix over the stored run with one ingredient replaced."""
    if results is None:
        results = state.verification_results
        if evidence != "load":  # a re-made document cannot match the digest the plugin sent
            results = [r.model_copy(update={"evidence_digest": None}) for r in results]
    return build_matrix(state.spec, state.plan.tasks, statuses or state.task_results, results,
                        store.read_workspace_evidence(state.run_id) if evidence == "load" else evidence,
                        store.workspace(state.run_id), state.runtime)


def test_todo_run_traces_4_of_4(todo_run):
    store, ctx = todo_run
    matrix = compute_matrix(store, ctx.state)
    assert (matrix.passed, matrix.total, matrix.coverage_pct) == (4, 4, 100.0)
    assert matrix.problems == [] and matrix.stale_files == []
    for r in matrix.requirements:
        assert r.status == "PASS" and r.missing == [], r
        assert any(e.endswith(" passed") for e in r.evidence), r.evidence
        assert any("→ exit_code 0" in e for e in r.evidence), r.evidence
    table = format_matrix(matrix)
    assert "coverage: 4/4 requirements PASS (100.0%)" in table
    assert table.splitlines()[0].split()[:4] == ["REQ", "STATUS", "WHITE", "BLACK"]   # the two legs apart (#47)
    assert all(line.split()[1:4] == ["PASS", "YES", "YES"] for line in table.splitlines()[1:5])
    review = ReviewReport.model_validate_json(store.artifact_path(ctx.run_id, "review").read_text())
    assert review.overall_status == "PASS"


def test_per_requirement_reports_are_complete(todo_run):
    store, ctx = todo_run
    ws = store.workspace(ctx.run_id)
    for spec_req in ctx.state.spec.requirements:
        report = json.loads((store.run_dir(ctx.run_id) / "requirements" / f"{spec_req.id}.json").read_text())
        assert report["text"] == spec_req.text and report["status"] == "PASS" and report["missing"] == []
        assert report["tests"] and all(t["outcome"] == "passed" for t in report["tests"].values())
        assert report["files"] and all(h and h.startswith("sha256:") for h in report["files"].values())
        some = next(iter(report["files"]))
        from harness.utils.fileio import sha256_file
        assert report["files"][some] == sha256_file(ws / some)
        assert report["commands"] and all(c["exit_code"] == 0 and c["command"] for c in report["commands"])


def test_missing_successful_verification_fails(todo_run):
    store, ctx = todo_run
    state = ctx.state
    without = [r for r in state.verification_results if r.task_id != "TASK-002"]
    matrix = _matrix(store, state, results=without)
    for rid in ("REQ-001", "REQ-002", "REQ-003"):           # TASK-002 covers these
        assert row(matrix, rid).status == "FAIL"
        assert "TASK-002 verification did not pass" in row(matrix, rid).missing
    assert row(matrix, "REQ-004").status == "PASS"
    # A later failing attempt supersedes the earlier PASS.
    failed = VerificationResult(task_id="TASK-004", status="FAIL", command="python -m pytest -q tests/test_health.py",
                                exit_code=1, batch=10_000)
    later = _matrix(store, state, results=[*state.verification_results, failed])
    assert "TASK-004 verification did not pass" in row(later, "REQ-004").missing
    # No evidence document at all, or an interrupted one.
    assert all(r.missing == ["no evidence document: the workspace was not verified"]
               for r in _matrix(store, state, evidence=None).requirements)
    broken = {**store.read_workspace_evidence(ctx.run_id), "complete": False}
    assert _matrix(store, state, evidence=broken).passed == 0
    statuses = {**state.task_results, "TASK-003": TaskStatus.FAILED}
    assert "TASK-003 is FAILED" in row(_matrix(store, state, statuses=statuses), "REQ-004").missing


def _rebuilt_evidence(store, run_id, checks_for, outcome_for=None, extra_tests=None, marker_errors=()):
    """The stored evidence re-made by the plugin's own builder with changed test facts."""
    doc = store.read_workspace_evidence(run_id)
    tests = {n: {**e, "outcome": (outcome_for or {}).get(n, e["outcome"])} for n, e in doc["tests"].items()}
    tests.update(extra_tests or {})
    return ev.make_document(run_id=run_id, complete=True, session=doc["session"], snapshot=doc["snapshot"],
                            tests=tests, expected=REQS, marker_errors=list(marker_errors), collection_errors=[],
                            proofs={n: {"checks": checks_for(n, e), "fake_checks": [], "executed": e["executed"],
                                        "lines": e["lines"]} for n, e in tests.items()},
                            req_files={rid: r["files"] for rid, r in doc["requirements"].items()})


def test_no_assertion_and_skipped_tests_do_not_count(todo_run):
    store, ctx = todo_run
    weak = _rebuilt_evidence(store, ctx.run_id,
                             lambda n, e: 0 if "REQ-002" in e["reqs"] else e["checks"])
    matrix = _matrix(store, ctx.state, evidence=weak)
    missing = row(matrix, "REQ-002").missing
    assert row(matrix, "REQ-002").status == "FAIL"
    assert any(m.startswith("weak: ") and m.endswith(": no real check (no assert, pytest.raises or self.assert*)")
               for m in missing), missing
    assert row(matrix, "REQ-001").status == "PASS"     # still has tests that assert
    doc = store.read_workspace_evidence(ctx.run_id)
    skipped = _rebuilt_evidence(store, ctx.run_id, lambda n, e: e["checks"],
                                outcome_for={n: "skipped" for n, e in doc["tests"].items() if "REQ-004" in e["reqs"]})
    assert row(_matrix(store, ctx.state, evidence=skipped), "REQ-004").missing == [
        "tests marked REQ-004 were skipped or not run"]


def test_unknown_requirement_id_in_a_marker_is_a_problem(todo_run):
    store, ctx = todo_run
    stray = {"tests/test_extra.py::test_x": {"reqs": ["REQ-099"], "outcome": "passed", "duration_s": 0.0,
                                             "checks": 1, "executed": {}, "lines": {}, "failure": None}}
    doc = _rebuilt_evidence(store, ctx.run_id, lambda n, e: e["checks"], extra_tests=stray)
    matrix = _matrix(store, ctx.state, evidence=doc)
    assert matrix.problems == ["unknown requirement id in a marker: REQ-099"]
    assert matrix.passed == 4          # every row is fine, yet the gate fails:
    from harness.trace.verdict import decide
    assert decide(matrix).overall_status == "FAIL"
    # A marker with no valid id at all, as the plugin records it.
    _, errors = ev.check_marker("tests/test_extra.py::test_y", ("bogus",), {})
    doc = _rebuilt_evidence(store, ctx.run_id, lambda n, e: e["checks"], marker_errors=errors)
    assert _matrix(store, ctx.state, evidence=doc).problems == [
        f"bad req marker: tests/test_extra.py::test_y: malformed requirement id (expected {ev.DEFAULT_ID_PATTERN}): 'bogus'"]


def test_deleting_models_py_fails_the_requirements_of_its_task(fresh_todo_run, capsys, tmp_path):
    store, run_id = fresh_todo_run
    d = str(store.base)
    assert cli(capsys, "review", run_id, "--runs-dir", d)[0] == 0
    assert cli(capsys, "trace", run_id, "--fail-under", "100", "--runs-dir", d)[0] == 0
    (store.workspace(run_id) / "src" / "models.py").unlink()
    code, out, _ = cli(capsys, "review", run_id, "--runs-dir", d)
    assert code == 1 and "REVIEW FAIL" in out
    report = ReviewReport.model_validate_json(store.artifact_path(run_id, "review").read_text())
    owners = {t.id for t in store.load(run_id).plan.tasks if "src/models.py" in t.files_touched}
    affected = {r.id for r in store.load(run_id).spec.requirements
                if any(r.id in t.requirements for t in store.load(run_id).plan.tasks if t.id in owners)}
    assert affected == {"REQ-001", "REQ-002", "REQ-003"}
    for r in report.requirements:
        assert (r.status == "FAIL") == (r.id in affected), r
        assert ("src/models.py missing" in r.missing) == (r.id in affected)
    code, out, _ = cli(capsys, "trace", run_id, "--fail-under", "100", "--runs-dir", d)
    assert code == 1 and "GATE FAILED" in out
    assert all(f"{rid}  FAIL" in out for rid in affected) and "REQ-004  PASS" in out
    per_req = json.loads((store.run_dir(run_id) / "requirements" / "REQ-001.json").read_text())
    assert per_req["status"] == "FAIL" and per_req["files"]["src/models.py"] is None
    # The CI gate re-verifies for real and names the failing requirements.
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "REQ-001: FAIL" in proc.stdout and "src/models.py missing" in proc.stdout
    assert "HARNESS RUN FAIL" in proc.stdout


def test_stale_file_flips_pass_until_reverified(fresh_todo_run, capsys, tmp_path):
    store, run_id = fresh_todo_run
    d = str(store.base)
    assert cli(capsys, "review", run_id, "--runs-dir", d)[0] == 0
    with (store.workspace(run_id) / "src" / "api_todo.py").open("a") as fh:
        fh.write("#")                                     # one byte
    code, out, _ = cli(capsys, "review", run_id, "--runs-dir", d)
    assert code == 1
    report = ReviewReport.model_validate_json(store.artifact_path(run_id, "review").read_text())
    stale = "evidence stale: src/api_todo.py changed after verification"
    assert {r.id for r in report.requirements if stale in r.missing} == {"REQ-001", "REQ-002", "REQ-003"}
    assert [r.status for r in report.requirements] == ["FAIL", "FAIL", "FAIL", "PASS"]
    assert stale in out
    (tmp_path / "elsewhere").mkdir()
    # in-process (pytest.main, the same plugin hook and re-verifier): the real `python -m pytest
    # --harness-run` subprocess is test_demo_run's PASS and test_unknown_run_id_is_one_line_exit_4's
    proc = harness_run_in_process(run_id, store.base, tmp_path / "elsewhere", capsys)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "HARNESS RUN PASS: 4/4 requirements" in proc.stdout
    assert "re-verified TASK-002: COMPLETED" in proc.stdout
    assert cli(capsys, "review", run_id, "--runs-dir", d)[0] == 0
    assert cli(capsys, "trace", run_id, "--runs-dir", d)[0] == 0


def test_unknown_run_id_is_one_line_exit_4(tmp_path, capsys):
    proc = harness_run("no_such_run", tmp_path / "runs", tmp_path)
    assert proc.returncode == 4
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stderr.strip().count("\n") == 0 and "no_such_run" in proc.stderr
    for cmd in ("review", "trace"):
        code, out, err = cli(capsys, cmd, "no_such_run", "--runs-dir", str(tmp_path))
        assert code == 4 and out == "" and err.count("\n") == 1 and "no_such_run" in err


def test_harness_run_verifies_each_workspace_against_its_own_code(todo_run, tmp_path):
    from harness.orchestration.reverify import reverify_run

    store, ctx = todo_run
    good = copy_run(store, ctx.run_id, tmp_path / "a")
    bad = copy_run(store, ctx.run_id, tmp_path / "b")
    main_py = bad.workspace(ctx.run_id) / "src" / "main.py"
    text = main_py.read_text()
    assert text.count('return {"status": "ok"}') >= 1
    main_py.write_text(text.replace('return {"status": "ok"}', 'return {"status": "down"}'))
    lines: list[str] = []
    assert reverify_run(ctx.run_id, bad.base, say=lines.append) == 1     # broken one first ...
    assert any(line.startswith("REQ-004: FAIL") for line in lines), lines
    assert reverify_run(ctx.run_id, good.base, say=lines.append) == 0    # ... cannot leak into the good one
    assert "src.main" not in sys.modules                               # never imported in-process
    bad_ev = bad.read_workspace_evidence(ctx.run_id)
    good_ev = good.read_workspace_evidence(ctx.run_id)
    assert bad_ev["requirements"]["REQ-004"]["status"] == "failing"
    assert good_ev["requirements"]["REQ-004"]["status"] == "verified"
    assert bad_ev["snapshot"]["files"]["src/main.py"] != good_ev["snapshot"]["files"]["src/main.py"]


def test_gate_fails_on_uncovered_and_weak_requirements(fresh_todo_run, capsys, tmp_path):
    store, run_id = fresh_todo_run
    ws = store.workspace(run_id)
    assert strip_markers(ws, "REQ-002")                      # REQ-002: no test proves it any more
    assert strip_markers(ws, "REQ-003")                      # REQ-003: only a test that asserts nothing
    api_tests = ws / "tests" / "test_api_todo.py"
    api_tests.write_text(api_tests.read_text() + "\n\n@pytest.mark.req('REQ-003')\ndef test_placeholder():\n    pass\n")
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    matrix = json.loads(store.artifact_path(run_id, "matrix").read_text())
    assert row(matrix, "REQ-002").missing == ["no passing test marked REQ-002"]
    assert row(matrix, "REQ-003").status == "FAIL"
    assert row(matrix, "REQ-003").missing == [
        "weak: tests/test_api_todo.py::test_placeholder: no real check (no assert, pytest.raises or self.assert*)"]
    assert row(matrix, "REQ-001").status == "PASS" and row(matrix, "REQ-004").status == "PASS"
    d = str(store.base)
    code, out, _ = cli(capsys, "trace", run_id, "--runs-dir", d)
    assert code == 1 and "GATE FAILED: 50.0% < 100.0%" in out
    # 50% of the requirements PASS, but the request's one clause is not verified (#13: the gate
    # reads request coverage too)
    code, out, _ = cli(capsys, "trace", run_id, "--fail-under", "50", "--runs-dir", d)
    assert code == 1 and "GATE FAILED: request coverage 0.0% < 50.0%" in out
    assert cli(capsys, "trace", run_id, "--fail-under", "0", "--runs-dir", d)[0] == 0
    code, out, _ = cli(capsys, "trace", run_id, "--json", "--runs-dir", d)
    assert code == 1 and json.loads(out)["coverage_pct"] == 50.0


def test_harness_run_reverifies_every_task_it_can_changed_or_not(fresh_todo_run):
    """#46: re-verification executes every task whose files are present and whose dependencies
    completed — not only the tasks whose files changed (an unchanged file proves nothing about
    the clock, TZ, a dependency or a data file the tests read)."""
    from harness.orchestration.context import RunContext
    from harness.providers.mock import MockProvider
    from harness.orchestration.reverify import tasks_to_reverify

    store, run_id = fresh_todo_run
    ctx = RunContext(store=store, state=store.load(run_id), llm=MockProvider())
    every = [t.id for t in ctx.state.plan.tasks]
    assert [t.id for t in tasks_to_reverify(ctx)] == every               # nothing changed: all of them
    ws = ctx.workspace
    ctx.state.task_results["TASK-004"] = TaskStatus.FAILED         # e.g. escalated, then fixed by hand
    ctx.state.task_results["TASK-005"] = TaskStatus.BLOCKED
    assert [t.id for t in tasks_to_reverify(ctx)] == every[:4]           # 005 waits for 004
    ctx.state.task_results["TASK-004"] = TaskStatus.COMPLETED      # once 004 re-verified, 005 is ready
    assert [t.id for t in tasks_to_reverify(ctx)] == every
    (ws / "tests" / "test_acceptance.py").unlink()                 # a file is gone: needs a rebuild, not a re-run
    assert [t.id for t in tasks_to_reverify(ctx)] == every[:4]


def test_harness_run_turned_a_blocked_task_into_failed_bug(fresh_todo_run):
    """Bug: after an escalation, `pytest --harness-run` re-ran the BLOCKED dependent and recorded it FAILED."""
    from harness.orchestration.context import RunContext
    from harness.orchestration.reverify import reverify_tasks
    from harness.providers.mock import MockProvider

    store, run_id = fresh_todo_run
    ctx = RunContext(store=store, state=store.load(run_id), llm=MockProvider(), say=lambda _l: None)
    main = ctx.workspace / "src" / "main.py"
    main.write_text(main.read_text() + "\ndef broken(:\n")
    ctx.state.task_results["TASK-004"] = TaskStatus.FAILED
    ctx.state.task_results["TASK-005"] = TaskStatus.BLOCKED
    lines = reverify_tasks(ctx)
    assert [line.split(":")[0] for line in lines] == [f"re-verified TASK-00{n}" for n in (1, 2, 3, 4)]
    assert ctx.state.task_results["TASK-004"] == TaskStatus.FAILED
    assert ctx.state.task_results["TASK-005"] == TaskStatus.BLOCKED


def test_requirement_evidence_cites_the_final_suite_not_only_carried_task_runs_bug(todo_run):
    """A requirement's evidence listed the per-task commands (the last one "80 tests: 23 run, 57
    carried") but not the final whole-suite run its verdict rests on, so a reader saw carried
    results as the proof. Each row now cites the final suite and says every test in it ran."""
    store, ctx = todo_run
    finals = [r for r in ctx.state.verification_results if r.task_id == "WORKSPACE"]
    assert finals and all(r.carried == 0 for r in finals)
    matrix = compute_matrix(store, ctx.state)
    for row in matrix.requirements:
        line = next((e for e in row.evidence if "(final suite:" in e), None)
        assert line is not None, row.evidence
        assert ", every one run" in line and "carried" not in line and f"{finals[-1].tests} tests" in line
