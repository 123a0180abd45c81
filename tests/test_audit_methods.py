"""#19: the audit's confirm method (mutants first, then only the tests a verdict rests on, on the
original code) gives the verdicts of the baseline-first method (every planned test on the original
code first) — per mutant, per requirement in audit.json, in the review and the matrix — on real
Todo runs with planted weak tests, and still catches a scratch setup the tests fail in.
"""

import ast
import json
import re

import pytest

from judged_copies import Step, artifacts, edit_marked_tests, plant_blind_tests, replace_bodies
from run_copies import cli, harness_run_in_process, row

# Passes in the workspace, fails in the audit's scratch copy (which leaves *.db files out).
NEEDS_FIXTURE = "assert (__import__('pathlib').Path(__file__).parent / 'fixture.db').is_file()"


def _prefix_bodies(workspace, rid: str, statement: str) -> list[str]:
    """Put `statement` first in every test marked `rid`; the node ids changed."""
    return edit_marked_tests(workspace, rid, lambda node: node.body.__setitem__(slice(0, 0), ast.parse(statement).body))


def _said(step) -> dict:
    """What the review and the matrix say, and the audit's lines, after one `builder audit --method`."""
    doc, review, matrix = step.artifacts["audit"], step.artifacts["review"], step.artifacts["matrix"]
    return {"overall": review["overall_status"],
            "requirements": {r["id"]: (r["status"], r.get("missing")) for r in review["requirements"]},
            "matrix": {rid: (row(matrix, rid).status, row(matrix, rid).mutation) for rid in doc["requirements"]},
            "lines": [line for line in step.out.splitlines() if line.startswith(("  audit ", "REQ-", "not audited", "AUDIT"))]}


def _audit(capsys, store, run_id, method, *extra):
    """(exit code, audit.json, what the review and the matrix say) after `builder audit --method`."""
    code, out, err = cli(capsys, "audit", run_id, "--runs-dir", str(store.base), "--method", method, *extra)
    step = Step(code, out, err, artifacts(store, run_id, "audit", "review", "matrix"))
    return code, step.artifacts["audit"], _said(step)


def _verdicts(doc) -> dict:
    """audit.json's per-requirement results and per-mutant verdicts (not its timings, nor the guard
    ids: fresh random draws in every audit, #47)."""
    return {rid: {**{k: v for k, v in r.items() if k not in ("details", "decoys")},   # decoys: random draws
                  "details": [{k: d[k] for k in ("file", "line", "kind", "description", "diff", "result")}
                              for d in r["details"]]}
            for rid, r in doc["requirements"].items()}


def _strip_timing(said: dict) -> dict:
    """The lines without timings, nor how many decoys passed (random draws, pytest_harness/decoy_plan.py)."""
    return {**said, "lines": [re.sub(r"; \d+/\d+ decoys passed", "", line.split("  (")[0]) for line in said["lines"]]}


@pytest.mark.slow
def test_planted_weak_and_blind_tests_get_the_same_verdicts_from_both_methods(fresh_todo_run, tmp_path, capsys,
                                                                             monkeypatch):
    # one lane each: the confirm method's lanes share one queue and each confirms what its own
    # verdicts rest on, so their summed count could exceed the reference's per-lane planned tests
    # (#47: a shared line's mutant may rest on another requirement's test) without costing more
    monkeypatch.setenv("HARNESS_AUDIT_LANES", "1")
    store, run_id = fresh_todo_run
    workspace = store.workspace(run_id)
    assert replace_bodies(workspace, "REQ-004", "assert True")   # proves nothing: weak, never audited
    assert plant_blind_tests(workspace, "REQ-003")      # a real check that cannot see REQ-003's code
    harness_run_in_process(run_id, store.base, tmp_path, capsys)  # fresh evidence of the planted tests
    statuses = {rid: r["status"] for rid, r in store.read_workspace_evidence(run_id)["requirements"].items()}
    assert statuses["REQ-004"] == "weak" and statuses["REQ-003"] == "verified", statuses

    code_ref, ref, said_ref = _audit(capsys, store, run_id, "baseline-first")
    code_new, new, said_new = _audit(capsys, store, run_id, "confirm")

    assert (code_new, _verdicts(new), _strip_timing(said_new)) == (code_ref, _verdicts(ref), _strip_timing(said_ref))
    assert code_new == 1 and said_new["overall"] == "FAIL"
    blind = new["requirements"]["REQ-003"]
    # its mutants survive its tests; on the lines every test runs, other requirements' tests kill them
    # (#47: "elsewhere", not a kill of its own): it killed none either way
    assert blind["mutants"] >= 1 and blind["killed"] == 0 and (blind["survived"] or blind["elsewhere"])
    assert "REQ-003: tests do not detect a broken implementation: 0/" in "\n".join(said_new["lines"])
    assert said_new["matrix"]["REQ-003"][0] == "FAIL"
    assert new["requirements"]["REQ-004"]["skipped"].startswith("not verified (weak")
    assert all(new["requirements"][rid]["killed"] >= 1 for rid in ("REQ-001", "REQ-002"))
    assert (ref["method"], new["method"]) == ("baseline-first", "confirm")
    assert new["baseline"]["status"] == "passed" and new["baseline"]["tests"] <= ref["baseline"]["tests"]


@pytest.mark.slow
def test_a_test_failing_only_in_the_scratch_copy_never_kills_a_mutant(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    workspace = store.workspace(run_id)
    (workspace / "tests" / "fixture.db").write_bytes(b"not copied into the scratch copy")
    broken = _prefix_bodies(workspace, "REQ-004", NEEDS_FIXTURE)
    assert broken
    harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert store.read_workspace_evidence(run_id)["requirements"]["REQ-004"]["status"] == "verified"

    # two mutants a requirement: the point is the scratch-only failure (the test above compares the
    # methods at the default budget)
    code_ref, ref, said_ref = _audit(capsys, store, run_id, "baseline-first", "--max-mutants", "2")
    code_new, new, said_new = _audit(capsys, store, run_id, "confirm", "--max-mutants", "2")

    assert (code_new, _verdicts(new), _strip_timing(said_new)) == (code_ref, _verdicts(ref), _strip_timing(said_ref))
    entry = new["requirements"]["REQ-004"]
    assert entry["killed"] == 0 and entry["mutants"] == 0
    assert entry["skipped"] == "its tests did not pass on the unmutated copy"
    assert {d["result"] for d in entry["details"]} == {"unjudged"}
    assert new["baseline"]["status"] == "failed" and set(new["baseline"]["failed"]) <= set(broken)
    assert new["baseline"]["failed"]
    assert all(new["requirements"][rid]["killed"] >= 1 for rid in ("REQ-001", "REQ-002", "REQ-003"))
