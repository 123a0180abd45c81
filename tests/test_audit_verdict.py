"""The headline of `builder audit`: PASS only when something was audited and every audited requirement killed."""
from __future__ import annotations

from harness.commands.audit import audit_verdict


def _r(mutants: int, killed: int, skipped: str | None = None) -> dict:
    return {"mutants": mutants, "killed": killed, "skipped": skipped}


def test_audit_of_a_failed_run_said_audit_pass_bug() -> None:
    """Bug: every requirement 'not verified (failing)', nothing mutated, yet 'AUDIT PASS' and exit 0."""
    verdict, lines = audit_verdict({"REQ-001": _r(0, 0, "not verified (failing)"),
                                    "REQ-002": _r(0, 0, "not verified (failing)")})
    assert verdict == "FAIL"
    assert lines == ["not audited (not verified): REQ-001, REQ-002",
                     "nothing was audited: no requirement had a mutant to run"]


def test_every_audited_requirement_killing_a_mutant_passes() -> None:
    assert audit_verdict({"REQ-001": _r(3, 1), "REQ-002": _r(2, 2)}) == ("PASS", [])


def test_a_requirement_with_mutants_and_none_killed_fails_named() -> None:
    verdict, lines = audit_verdict({"REQ-001": _r(3, 1), "REQ-002": _r(2, 0)})
    assert verdict == "FAIL" and lines == ["REQ-002: tests do not detect a broken implementation: 0/2 mutants killed"]


def test_a_verified_requirement_without_mutable_lines_does_not_fail_the_audit() -> None:
    skipped = "no mutable line executed by its tests in its implementation files"
    assert audit_verdict({"REQ-001": _r(3, 1), "REQ-002": _r(0, 0, skipped)}) == ("PASS", [])
