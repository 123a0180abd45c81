"""The lines `pytest --harness-run` prints for each re-run command."""
from __future__ import annotations

from harness.models.results import VerificationResult
from harness.orchestration.reverify import result_line


def _result(**kw) -> VerificationResult:
    base = dict(task_id="WORKSPACE", status="PASS", command="python -m pytest -q", exit_code=0)
    return VerificationResult(**{**base, **kw})


def test_reverify_failed_with_exit_code_0_names_the_rejection_reason() -> None:
    """Bug: 'FAILED … → exit_code 0' with no reason when pytest passed but the evidence was rejected."""
    r = _result(status="FAIL", diagnostics={"summary": "evidence changed after the session: digest mismatch"})
    assert result_line(r) == ("python -m pytest -q → exit_code 0 — FAIL: "
                              "evidence changed after the session: digest mismatch")


def test_reverify_line_of_a_pass_is_just_the_command_and_exit_code() -> None:
    assert result_line(_result()) == "python -m pytest -q → exit_code 0"


def test_reverify_line_of_a_timeout_says_timed_out() -> None:
    r = _result(status="FAIL", exit_code=None, timed_out=True)
    assert result_line(r) == "python -m pytest -q → exit_code None — FAIL: timed out"
