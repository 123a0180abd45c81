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


def test_every_audited_requirement_meeting_the_kill_ratio_passes() -> None:
    assert audit_verdict({"REQ-001": _r(3, 2), "REQ-002": _r(2, 2)}) == ("PASS", [])


def test_a_requirement_with_mutants_and_none_killed_fails_named() -> None:
    verdict, lines = audit_verdict({"REQ-001": _r(3, 2), "REQ-002": _r(2, 0)})
    assert verdict == "FAIL" and lines == [
        "REQ-002: tests do not detect a broken implementation: 0/2 mutants killed (0 of 2 judged; the bar is 50%)"]


def test_one_kill_among_hollow_tests_survivors_is_under_the_bar_and_names_them() -> None:
    """#47: the audit failed a requirement only when it killed zero mutants; `return None` mutants
    die to `x is not None`, so 1 of 4 killed passed. Now a kill ratio under 50% fails, survivors named."""
    survived = ["src/rooms.py:line 31: `==` → `!=` in `b.day == day`", "src/rooms.py:line 40: condition negated",
                "src/rooms.py:line 44: statement `rows.sort()` dropped"]
    verdict, lines = audit_verdict({"REQ-003": {**_r(4, 1), "survived": survived}, "REQ-004": {**_r(4, 2), "survived": survived[:2]}})
    assert verdict == "FAIL"
    assert lines == ["REQ-003: tests do not detect a broken implementation: 1/4 mutants killed (1 of 4 judged; the bar is 50%)",
                     *[f"REQ-003: survived: {s}" for s in survived]]


def test_a_verified_requirement_without_mutable_lines_does_not_fail_the_audit() -> None:
    skipped = "no mutable line executed by its tests in its implementation files"
    assert audit_verdict({"REQ-001": _r(3, 2), "REQ-002": _r(0, 0, skipped)}) == ("PASS", [])
