"""The audit's time box never decides a verdict against a requirement (flaky 'entity court' FAIL on CI).

Bug: with a 10 s time box, one mutant of REQ-006 ran and survived, its three others were not run, so
the requirement read '0/1 mutants killed' and BUILD FAILED; the full audit kills 3/4. Past the time box
a requirement whose judged mutants all survived now runs its remaining mutants (within a grace)."""
from __future__ import annotations

from pytest_harness.time_box import GRACE_FACTOR, admit


def test_time_box_decided_a_requirement_was_blind_after_one_surviving_mutant_bug() -> None:
    results = {"REQ-006:m1": "passed", "REQ-007:m1": "failed"}
    assert admit(10.5, 10.0, results, "REQ-006") == "run"      # only survivors so far: go on
    assert admit(10.5, 10.0, results, "REQ-007") == "skip"     # already killed one: the box holds
    assert admit(10.5, 10.0, results, "REQ-008") == "skip"     # nothing judged yet: the box holds


def test_within_the_time_box_everything_runs_and_the_grace_is_bounded() -> None:
    assert admit(3.0, 10.0, {}, "REQ-001") == "run"
    assert admit(10.0 * GRACE_FACTOR, 10.0, {"REQ-006:m1": "passed"}, "REQ-006") == "stop"


def test_unjudged_mutants_are_not_survivors() -> None:
    assert admit(10.5, 10.0, {"REQ-006:m1": "unjudged"}, "REQ-006") == "skip"
    assert admit(10.5, 10.0, {"REQ-006:m1": "passed", "REQ-006:m2": "timeout"}, "REQ-006") == "skip"


def test_a_requirement_under_the_kill_ratio_goes_on_past_the_box():
    """#47: the verdict is a kill ratio, so the box must not decide it: one of three killed runs on
    (a fourth may make it two of four); two of three killed meets the bar and the box holds."""
    under = {"REQ-011:1": "passed", "REQ-011:2": "failed", "REQ-011:3": "passed"}
    met = {"REQ-011:1": "passed", "REQ-011:2": "failed", "REQ-011:3": "failed"}
    assert admit(10.5, 10.0, under, "REQ-011") == "run"
    assert admit(10.5, 10.0, met, "REQ-011") == "skip"


def test_an_invalid_mutant_is_no_kill_for_the_time_box_either():
    """#47: a fixture or import error ('invalid') is not a kill: a survivor beside it is still under
    the bar, so the box must not stop the requirement (before: it counted as a kill, 1 of 2 met it)."""
    results = {"REQ-012:1": "invalid", "REQ-012:2": "passed", "REQ-012:3": "error"}
    assert admit(10.5, 10.0, results, "REQ-012") == "run"
