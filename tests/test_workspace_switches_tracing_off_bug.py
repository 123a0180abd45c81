"""A judged workspace cannot switch line tracing off, and an audit that judged no mutant of a
requirement's code is no pass (hostile trial i, 2026-12-07, A8).

The workspace's own pytest.ini said `harness_trace = off`: nothing was traced, so no passing test
was judged `weak` and the mutation audit had no executed line to mutate ("0/0 mutants killed");
`pytest --harness-run` said PASS for a suite whose every assert was hollowed (`assert (X) or True`),
and `builder audit` said AUDIT FAIL while the review stayed PASS. The harness's sessions now take
the plugin's settings from their own command line (pytest_harness/judged.py), and a verified
requirement with implementation files whose audit judged no mutant misses that leg
(harness/trace/evidence_checks.py: unaudited_lines). A project's own CI keeps its ini settings.

Real parts: `python -m pytest --harness-run` subprocesses over private copies of the real offline
Todo build, plain pytest subprocesses for the plugin, the real audit and review.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys

from harness.audit.run import AuditBudget, audit_run
from harness.trace.review_stage import judge
from harness.verification.verifier import command_argv
from pytest_harness.evidence import dump_document
from run_copies import harness_run

TRACE_OFF = "harness_trace = off\n"


class _Hollow(ast.NodeTransformer):
    """`assert X, m` -> `assert (X) or True, m`: every check passes whatever the app does."""

    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        node.test = ast.BoolOp(op=ast.Or(), values=[node.test, ast.Constant(True)])
        return node


def _hollow_tests(workspace) -> None:
    for path in sorted((workspace / "tests").glob("test_*.py")):
        tree = _Hollow().visit(ast.parse(path.read_text(encoding="utf-8")))
        path.write_text(ast.unparse(ast.fix_missing_locations(tree)) + "\n", encoding="utf-8")


def _trace_off(workspace) -> None:
    ini = workspace / "pytest.ini"
    assert ini.is_file(), sorted(p.name for p in workspace.iterdir())
    with ini.open("a", encoding="utf-8") as out:
        out.write(TRACE_OFF)


def test_workspace_ini_cannot_switch_tracing_off_bug(fresh_todo_run, tmp_path):
    store, run_id = fresh_todo_run
    workspace = store.workspace(run_id)
    _hollow_tests(workspace)
    _trace_off(workspace)

    proc = harness_run(run_id, store.base, tmp_path)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "HARNESS RUN FAIL" in out, out[-3000:]
    assert "ignored the workspace's own settings ini harness_trace" in out, out[-3000:]
    evidence = json.loads(store.workspace_evidence(run_id).read_text())
    assert evidence["tracing"]["traced"] == "marked tests, call phase", evidence["tracing"]
    assert any(req.get("status") == "weak" for req in evidence["requirements"].values()), evidence["requirements"]


def test_an_audit_that_judged_no_mutant_of_verified_code_is_no_pass_bug(fresh_todo_run):
    """The run's whole-suite evidence as the harness before this fix wrote it for A8: the plugin's
    real session with the workspace's `harness_trace = off` applied (run here unjudged, as a project's
    own CI runs it), and the digest the harness recorded for that session; then the real audit and
    review of that run."""
    store, run_id = fresh_todo_run
    workspace = store.workspace(run_id)
    before = json.loads(store.workspace_evidence(run_id).read_text())
    req_files = {rid: req["files"] for rid, req in before["requirements"].items() if req.get("files")}
    assert req_files, before["requirements"]
    _trace_off(workspace)
    argv = [a for a in command_argv("pytest -q", store.workspace_evidence(run_id), sorted(before["requirements"]),
                                    workspace, req_files) if a != "--harness-judged"]
    proc = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    evidence = json.loads(store.workspace_evidence(run_id).read_text())
    assert evidence["tracing"]["traced"] == "nothing", evidence["tracing"]   # the project's ini applied

    state = store.load(run_id)
    rel = store.relative(run_id, store.workspace_evidence(run_id))
    recorded = [r for r in state.verification_results if r.evidence_path == rel]
    assert recorded, [r.evidence_path for r in state.verification_results]
    recorded[-1].evidence_digest = "sha256:" + hashlib.sha256(dump_document(evidence).encode()).hexdigest()
    said: list[str] = []
    doc = audit_run(store, state, AuditBudget(), say=said.append)
    assert all(entry["mutants"] == 0 for entry in doc["requirements"].values()), said
    _matrix, report = judge(store, state)
    assert report.overall_status == "FAIL", [(r.id, r.status, r.missing) for r in report.requirements]
    for rid in req_files:
        row = next(r for r in report.requirements if r.id == rid)
        assert row.status != "PASS" and any("mutation audit judged no mutant" in m for m in row.missing), row.missing


def test_a_projects_own_ci_keeps_its_ini_settings(tmp_path):
    """Not judged (no --harness-judged): `harness_trace = off` in the project's ini still applies,
    as docs/plugin.md says; judged, it is ignored and named."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "pytest.ini").write_text("[pytest]\n" + TRACE_OFF)
    (tmp_path / "tests" / "test_a.py").write_text(
        "import pytest\n\n@pytest.mark.req('REQ-001')\ndef test_a():\n    assert sum([1, 2]) == 3\n")
    docs = {}
    for name, extra in (("ci", []), ("judged", ["--harness-judged"])):
        path = tmp_path / f"{name}.json"
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               f"--harness-evidence={path}", *extra], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        docs[name] = (json.loads(path.read_text()), proc.stdout)
    assert docs["ci"][0]["tracing"]["traced"] == "nothing" and "ignored_settings" not in docs["ci"][0]
    assert docs["judged"][0]["tracing"]["traced"] == "marked tests, call phase"
    assert docs["judged"][0]["ignored_settings"] == ["ini harness_trace"]
    assert "ignored the project's own settings ini harness_trace" in docs["judged"][1]
