"""Reviewer: rule-based decision; an LLM can annotate but never turn FAIL into PASS (SPEC M8)."""

from harness.agents.reviewer import Reviewer, rule_based_review
from harness.models.results import ReviewReport
from harness.providers.mock import MockProvider


def matrix(*rows, problems=()):
    return {"requirements": [{"id": rid, "status": st, "evidence": ["src/main.py"] if st == "PASS" else [],
                              "missing": [] if st == "PASS" else ["src/models.py missing"], "text": rid,
                              "implemented": True, "tested": st == "PASS", "runtime": True} for rid, st in rows],
            "problems": list(problems)}


def test_complete_evidence_passes():
    assert rule_based_review(matrix(("REQ-001", "PASS"), ("REQ-002", "PASS"))).overall_status == "PASS"


def test_one_failing_requirement_fails_overall():
    assert rule_based_review(matrix(("REQ-001", "PASS"), ("REQ-002", "FAIL"))).overall_status == "FAIL"


def test_runtime_failure_or_marker_problem_fails_overall():
    assert rule_based_review(matrix(("REQ-001", "PASS")), runtime_status="FAIL").overall_status == "FAIL"
    assert rule_based_review(matrix(("REQ-001", "PASS"), problems=["unknown id REQ-9"])).overall_status == "FAIL"


def test_llm_insisting_pass_cannot_override_fail():
    llm = MockProvider(script=['{"overall_status": "PASS"}\nEverything is PASS. REQ-002 status: PASS'])
    report = Reviewer(llm).review(matrix(("REQ-001", "PASS"), ("REQ-002", "FAIL")))
    assert report.overall_status == "FAIL"
    assert [r.status for r in report.requirements] == ["PASS", "FAIL"]
    assert any(n.startswith("llm:") for n in report.notes)


def test_review_json_validates_against_model():
    report = rule_based_review(matrix(("REQ-001", "FAIL")))
    again = ReviewReport.model_validate_json(report.model_dump_json())
    assert again.requirements[0].missing == ["src/models.py missing"]
    data = report.model_dump(mode="json")
    assert set(data["requirements"][0]) >= {"id", "status", "evidence", "missing"}
    assert data["overall_status"] == "FAIL"


def test_empty_matrix_is_not_pass():
    assert rule_based_review({"requirements": []}).overall_status == "FAIL"
