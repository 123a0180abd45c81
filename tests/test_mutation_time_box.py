"""The audit's time box never decides a verdict (#47).

First bug (flaky 'entity court' FAIL on CI): with a 10 s time box, one mutant of REQ-006 ran and
survived, its three others were not run, so the requirement read '0/1 mutants killed' and BUILD
FAILED; the full audit kills 3/4. Second bug, the mirror image: past the box a requirement that had
met the bar *so far* skipped its remaining mutants — one killed of one judged read as PASS although
the three not run could make it 1/4 — and a requirement none of whose mutants had started yet read
as "not audited", which is no objection: the box chose PASS. Now past the box only a requirement
whose verdict is settled (the same whatever its remaining mutants do) skips; an open verdict left
by the box is not met; and the box itself grows with this run's measured test times."""
from __future__ import annotations

import pytest

from pytest_harness.mutation_verdict import bar_lines, under_the_bar
from pytest_harness.time_box import GRACE_FACTOR, admit, box_seconds, open_verdict, settled


def test_time_box_decided_a_requirement_was_blind_after_one_surviving_mutant_bug() -> None:
    results = {"REQ-006:m1": "passed", "REQ-007:m1": "failed", "REQ-007:m2": "failed"}
    assert admit(10.5, 10.0, results, "REQ-006", 4) == "run"      # 0/1, three to run: open
    assert admit(10.5, 10.0, results, "REQ-007", 4) == "skip"     # 2/2 killed: 2 of 4 meets whatever comes


def test_time_box_chose_pass_for_a_requirement_that_had_met_the_bar_so_far_bug() -> None:
    """1 of 1 killed with three mutants still to run is not a verdict: all three surviving is 1/4."""
    results = {"REQ-008:1": "failed"}
    assert not settled(results, "REQ-008", 4)
    assert admit(10.5, 10.0, results, "REQ-008", 4) == "run"
    assert admit(10.5, 10.0, {}, "REQ-009", 4) == "run"           # nothing judged yet: open too


def test_within_the_time_box_everything_runs_and_the_grace_is_bounded() -> None:
    assert admit(3.0, 10.0, {"REQ-007:1": "failed", "REQ-007:2": "failed"}, "REQ-007", 4) == "run"
    assert admit(10.0 * GRACE_FACTOR, 10.0, {"REQ-006:m1": "passed"}, "REQ-006", 4) == "stop"


def test_a_verdict_is_settled_only_when_the_rest_cannot_change_it() -> None:
    assert not open_verdict(1, 1, 0)                 # nothing left
    assert open_verdict(1, 1, 3)                     # 1/4 misses, 4/4 meets
    assert not open_verdict(2, 2, 2)                 # 2/4 meets at worst
    assert not open_verdict(0, 3, 1)                 # 1/4 misses at best
    assert open_verdict(0, 0, 1)                     # one mutant, not run: either way
    assert settled({"R:1": "failed", "R:2": "passed", "R:3": "failed"}, "R", 4)      # 2/4 at worst
    assert not settled({"R:1": "passed", "R:2": "failed", "R:3": "passed"}, "R", 4)  # 1/4 or 2/4


def test_unjudged_and_invalid_mutants_count_as_run_but_not_judged() -> None:
    results = {"REQ-012:1": "invalid", "REQ-012:2": "passed", "REQ-012:3": "error"}
    assert admit(10.5, 10.0, results, "REQ-012", 4) == "run"      # 0/1 judged, one left: could be 1/2
    assert admit(10.5, 10.0, results, "REQ-012", 3) == "skip"     # nothing left: 0/1 misses
    assert admit(10.5, 10.0, {"REQ-006:m1": "unjudged"}, "REQ-006", 1) == "skip"


def test_an_open_verdict_left_by_the_time_box_is_not_met() -> None:
    """The requirement's audit entry: 1 killed, 1 judged, 3 never started (the box ended first)."""
    open_entry = {"mutants": 1, "killed": 1, "survived": [], "invalid": 0, "not_run": 3, "time_box": 3}
    assert under_the_bar(open_entry)
    assert "mutation audit incomplete: 3 of its mutants were not run" in bar_lines(open_entry)[0]
    untouched = {"mutants": 0, "killed": 0, "survived": [], "invalid": 0, "not_run": 4, "time_box": 4}
    assert under_the_bar(untouched)                  # before: "not audited", so no objection
    settled_entry = {"mutants": 2, "killed": 2, "survived": [], "invalid": 0, "not_run": 2, "time_box": 2}
    assert not under_the_bar(settled_entry) and bar_lines(settled_entry) == []
    unjudged = {"mutants": 0, "killed": 0, "survived": [], "invalid": 0, "not_run": 4, "time_box": 0,
                "skipped": "its tests did not pass on the unmutated copy"}
    assert not under_the_bar(unjudged)               # not audited, for a stated reason
    older = {"mutants": 1, "killed": 1, "survived": [], "invalid": 0, "not_run": 3}
    assert not under_the_bar(older)                  # an audit.json written before "time_box" existed


def test_the_time_box_grows_with_the_measured_test_times() -> None:
    order = [("R1", 1, ["t::a", "t::b"]), ("R1", 2, ["t::a"]), ("R2", 3, ["t::c"])]
    idle = {"t::a": 0.2, "t::b": 0.3, "t::c": 0.1}
    loaded = {name: 10 * s for name, s in idle.items()}
    assert box_seconds(10.0, order, idle, 2) == 10.0             # the floor holds on an idle machine
    assert box_seconds(10.0, order, loaded, 1) == pytest.approx(3.0 * (0.3 + 5.0 + 2.0 + 1.0))
    assert box_seconds(10.0, order, loaded, 2) == pytest.approx(3.0 * (0.3 + 5.0 + 2.0 + 1.0) / 2)
