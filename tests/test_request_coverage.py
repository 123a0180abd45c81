"""#13: request coverage (clauses built and verified), the clause checks of the spec validator,
the spec-stage failure of a request with nothing buildable, and the fidelity comparison."""

from __future__ import annotations

import json

import pytest

from harness.cli import main
from harness.fidelity import compare, run_fidelity
from harness.models.spec import AppSpec, Clause, Requirement
from harness.offline.spec import parse_request
from harness.trace.coverage import format_coverage, request_coverage
from harness.validation.clause_check import NO_CLAUSES, clause_errors


def _spec(clauses: list[Clause], caps: dict[str, str]) -> AppSpec:
    return AppSpec(requirements=[Requirement(id=r, text=f"text {r}", capability=c) for r, c in caps.items()],
                   clauses=clauses)


def _matrix(statuses: dict[str, str]) -> dict:
    return {"requirements": [{"id": r, "status": s} for r, s in statuses.items()]}


def test_coverage_counts_only_clauses_whose_requirements_all_pass():
    spec = _spec([Clause(id="C-001", text="Hi!", status="context"),
                  Clause(id="C-002", text="manage tasks", status="mapped", reqs=["REQ-001"]),
                  Clause(id="C-003", text="a dashboard", status="mapped", reqs=["REQ-001", "REQ-002"]),
                  Clause(id="C-004", text="accept card payments", status="not_built", reqs=["REQ-003"],
                         reason="no offline rule understands \"payments\"")],
                 {"REQ-001": "crud", "REQ-002": "dashboard", "REQ-003": "unsupported"})
    cov = request_coverage(spec, _matrix({"REQ-001": "PASS", "REQ-002": "FAIL", "REQ-003": "FAIL"}))
    assert (cov["asking"], cov["built"], cov["context"], cov["complete"]) == (3, 1, 1, False)
    assert format_coverage(cov) == (
        'Request coverage: 1 of 3 clauses built and verified. Not built: "accept card payments" '
        '(no offline rule understands "payments"). Built but not verified: "a dashboard" (REQ-002 not PASS).')


def test_every_asking_clause_passing_is_complete():
    spec = _spec([Clause(id="C-001", text="manage tasks", status="mapped", reqs=["REQ-001"])], {"REQ-001": "crud"})
    cov = request_coverage(spec, _matrix({"REQ-001": "PASS"}))
    assert cov["complete"] and cov["pct"] == 100.0
    assert format_coverage(cov) == "Request coverage: 1 of 1 clauses built and verified."


def test_a_spec_without_clauses_is_reported_as_not_recorded():
    cov = request_coverage(_spec([], {"REQ-001": "crud"}), _matrix({"REQ-001": "PASS"}))
    assert not cov["recorded"] and "not recorded" in format_coverage(cov)


@pytest.mark.parametrize("clause, caps, error", [
    (Clause(id="C-001", text="manage tasks", status="mapped"), {}, "maps to no buildable requirement"),
    (Clause(id="C-001", text="manage tasks", status="mapped", reqs=["REQ-001"]), {"REQ-001": "unsupported"},
     "maps to no buildable requirement"),
    (Clause(id="C-001", text="send sms", status="not_built", reqs=["REQ-001"]), {"REQ-001": "crud"},
     "names no unsupported requirement"),
    (Clause(id="C-001", text="manage tasks", status="mapped", reqs=["REQ-009"]), {"REQ-001": "crud"},
     "unknown requirement REQ-009"),
    (Clause(id="C-001", text="manage dragons", status="mapped", reqs=["REQ-001"]), {"REQ-001": "crud"},
     "is not text of the request"),
])
def test_validator_rejects_a_clause_that_asks_for_something_and_maps_to_nothing(clause, caps, error):
    errors = clause_errors(_spec([clause], caps), "please manage tasks and send sms")
    assert any(error in e for e in errors), errors


def test_validator_needs_clauses_when_it_knows_the_request():
    assert clause_errors(_spec([], {"REQ-001": "crud"}), "manage tasks") == [NO_CLAUSES]
    assert clause_errors(_spec([], {"REQ-001": "crud"})) == []


@pytest.mark.parametrize("request_text", ["hello", "Build a 3D racing game"])
def test_nothing_buildable_ends_build_failed_at_the_spec_stage(request_text, tmp_path, capsys):
    code = main(["new", request_text, "--runs-dir", str(tmp_path), "--run-id", "r1"])
    out = capsys.readouterr()
    assert code == 1
    assert "BUILD FAILED at the spec stage" in out.out and "C-001" in out.out
    assert "Traceback" not in out.out + out.err
    assert not (tmp_path / "r1" / "workspace" / "src").exists()


def _item(request: str, entities: dict, outcome: str, not_built: list[str] | None = None) -> dict:
    return {"id": "x", "category": "crud", "request": request,
            "expected": {"entities": entities, "relations": [], "features": [], "not_built": not_built or [],
                         "outcome": outcome}}


def test_fidelity_flags_a_complete_run_whose_expected_entity_is_missing():
    item = _item("an app to manage tasks", {"task": ["title"], "project": []}, "complete")
    row = compare(item, parse_request(item["request"]), "complete")
    assert row.entities == (1, 1, 2) and row.fields == (1, 1)
    assert row.false_pass == ["entity project missing"]


def test_fidelity_false_pass_counts_missing_fields_a_complete_run_without_the_asked_field_is_flagged():
    """Bug (fresh held-out 39): BUILD COMPLETE without the requested 'service' field was not a false PASS."""
    item = _item("an app to manage tasks", {"task": ["title", "hourly rate of the plumber"]}, "complete")
    row = compare(item, parse_request(item["request"]), "complete")
    assert row.fields == (1, 2)
    assert row.false_pass == ["1 of 2 expected field(s) missing"]


def test_fidelity_flags_a_complete_run_of_a_request_expected_to_fail():
    item = _item("an app to manage tasks", {"task": []}, "failed", ["sms reminders"])
    row = compare(item, parse_request(item["request"]), "complete")
    assert row.false_pass and row.false_pass[0].startswith("expected BUILD FAILED")


def test_fidelity_spec_only_prints_rows_and_totals(tmp_path):
    (tmp_path / "01-a.json").write_text(json.dumps({**_item("an app to manage books. Send SMS alerts",
                                                            {"book": []}, "failed", ["sms"]), "id": "01-a"}))
    lines: list[str] = []
    assert run_fidelity(spec_only=True, directory=tmp_path, say=lines.append) == 0
    assert lines[0].startswith("01-a") and "failed   failed" in lines[0]
    assert any("entity precision 100.0%" in line for line in lines)
