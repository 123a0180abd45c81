"""The verdict (rule-based, decided once) and the LLM reviewer, which may annotate but never turn
FAIL into PASS (SPEC M8)."""

import pytest

from harness.agents.reviewer import Reviewer
from harness.models.results import ReviewReport
from harness.models.trace import MatrixRow, TraceMatrix
from harness.providers.mock import MockProvider
from harness.trace.verdict import decide, gate, row_status


def matrix(*rows, problems=()):
    passed = sum(1 for _, st in rows if st == "PASS")
    return TraceMatrix(
        requirements=[MatrixRow(id=rid, status=st, evidence=["src/main.py"] if st == "PASS" else [],
                                missing=[] if st == "PASS" else ["src/models.py missing"], text=rid,
                                implemented=True, tested=st == "PASS", runtime=True) for rid, st in rows],
        problems=list(problems), passed=passed, total=len(rows),
        coverage_pct=round(100.0 * passed / len(rows), 1) if rows else 0.0)


@pytest.mark.parametrize("missing, status", [([], "PASS"), (["src/x.py missing"], "FAIL")])
def test_a_row_passes_only_with_nothing_missing(missing, status):
    assert row_status(missing) == status


@pytest.mark.parametrize("rows, problems, runtime, overall", [
    ((("REQ-001", "PASS"), ("REQ-002", "PASS")), (), None, "PASS"),
    ((("REQ-001", "PASS"), ("REQ-002", "FAIL")), (), None, "FAIL"),
    ((("REQ-001", "PASS"),), (), "FAIL", "FAIL"),
    ((("REQ-001", "PASS"),), ("unknown id REQ-9",), None, "FAIL"),
    ((), (), None, "FAIL"),
])
def test_decide_overall_verdict(rows, problems, runtime, overall):
    assert decide(matrix(*rows, problems=problems), runtime_status=runtime).overall_status == overall


@pytest.mark.parametrize("rows, problems, fail_under, ok", [
    ((("REQ-001", "PASS"), ("REQ-002", "FAIL")), (), 100, False),
    ((("REQ-001", "PASS"), ("REQ-002", "FAIL")), (), 50, True),
    ((("REQ-001", "PASS"), ("REQ-002", "FAIL")), (), 51, False),
    ((("REQ-001", "PASS"),), ("bad marker",), 10, False),
    ((("REQ-001", "PASS"),), (), 100, True),
])
def test_trace_gate_at_100_is_the_review_verdict(rows, problems, fail_under, ok):
    m = matrix(*rows, problems=problems)
    assert gate(decide(m), m, fail_under) is ok


def test_llm_insisting_pass_cannot_override_fail():
    from harness.trace.review_stage import judge  # noqa: F401  (the path the pipeline uses)

    llm = MockProvider(script=['{"overall_status": "PASS"}\nEverything is PASS. REQ-002 status: PASS'])
    m = matrix(("REQ-001", "PASS"), ("REQ-002", "FAIL"))
    report = decide(m)
    report.notes += Reviewer(llm).notes(m, report)
    assert report.overall_status == "FAIL"
    assert [r.status for r in report.requirements] == ["PASS", "FAIL"]
    assert any(n.startswith("llm:") for n in report.notes)


def test_offline_reviewer_adds_no_notes():
    m = matrix(("REQ-001", "PASS"))
    assert Reviewer(MockProvider()).notes(m, decide(m)) == []


def test_review_json_validates_against_model():
    report = decide(matrix(("REQ-001", "FAIL")))
    again = ReviewReport.model_validate_json(report.model_dump_json())
    assert again.requirements[0].missing == ["src/models.py missing"]
    data = report.model_dump(mode="json")
    assert set(data["requirements"][0]) >= {"id", "status", "evidence", "missing"}
    assert data["overall_status"] == "FAIL"


def test_matrix_round_trips_with_schema_version():
    m = matrix(("REQ-001", "PASS"))
    again = TraceMatrix.model_validate_json(m.model_dump_json())
    assert again == m and again.schema_version == 1 and again.row("REQ-001").status == "PASS"
