"""The audit's confirm method (pytest_harness/mutation_confirm.py): which tests a verdict rests on,
and the verdict once the tests that fail on the original code are known. The verdicts must be the
baseline-first method's: a test that fails on the unmutated copy never kills a mutant."""
from __future__ import annotations

from pytest_harness.mutation_confirm import MutantRun, rests_on, to_confirm, verdict, without
from pytest_harness.mutation_runner import child_limit, MIN_TIMEOUT_S, TIMEOUT_FACTOR


def test_a_kill_rests_on_the_first_failing_test_only():
    run = MutantRun(["t1", "t2", "t3"], "failed", ["t2"])
    assert rests_on(run) == ["t2"]
    assert verdict(run, set()) == "failed"
    assert verdict(run, {"t1"}) == "failed"          # t1 passed against the mutant anyway


def test_a_kill_by_a_test_that_fails_on_the_original_is_judged_again_without_it():
    run = MutantRun(["t1", "t2", "t3"], "failed", ["t2"])
    assert verdict(run, {"t2"}) is None
    assert without(run, {"t2"}) == ["t1", "t3"]
    assert verdict(MutantRun(["t2"], "failed", ["t2"]), {"t2"}) == "unjudged"   # nothing left to judge it


def test_a_survivor_rests_on_all_its_tests_and_is_unjudged_only_when_all_fail_on_the_original():
    run = MutantRun(["t1", "t2"], "passed", [])
    assert rests_on(run) == ["t1", "t2"]
    assert verdict(run, {"t1"}) == "passed"
    assert verdict(run, {"t1", "t2"}) == "unjudged"


def test_a_timeout_or_error_rests_on_every_test_it_ran():
    for status in ("timeout", "error"):
        run = MutantRun(["t1", "t2"], status, [])
        assert rests_on(run) == ["t1", "t2"]
        assert verdict(run, set()) == status
        assert verdict(run, {"t2"}) is None      # the broken test may be what hung: judge it again


def test_a_failure_without_a_reported_test_rests_on_all_of_them():
    run = MutantRun(["t1", "t2"], "failed", [])
    assert rests_on(run) == ["t1", "t2"]
    assert verdict(run, set()) == "failed" and verdict(run, {"t1"}) is None


def test_only_unconfirmed_tests_are_confirmed_in_node_id_order():
    runs = {"R:1": MutantRun(["b", "a"], "failed", ["b"]), "R:2": MutantRun(["c", "a"], "passed", []),
            "R:3": MutantRun(["d"], "failed", ["d"])}
    assert to_confirm(runs, set()) == ["a", "b", "c", "d"]
    assert to_confirm(runs, {"a", "d"}) == ["b", "c"]


def test_a_mutant_child_gets_five_times_its_tests_evidence_time_and_at_least_the_minimum():
    assert child_limit(["a"], {"a": 0.1}) == MIN_TIMEOUT_S
    assert child_limit(["a", "b"], {"a": 1.0, "b": 1.0, "c": 9.0}) == TIMEOUT_FACTOR * 2.0


def test_a_run_judged_again_rests_on_all_its_tests():
    run = MutantRun(["t2", "t3"], "failed", ["t2"], again=True)
    assert rests_on(run) == ["t2", "t3"]
