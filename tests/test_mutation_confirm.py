"""The audit's confirm method (pytest_harness/mutation_confirm.py): which tests a verdict rests on,
and the verdict once the tests that fail on the original code are known. The verdicts must be the
baseline-first method's: a test that fails on the unmutated copy never kills a mutant."""
from __future__ import annotations

import pytest

from pytest_harness.mutation_confirm import MutantRun, needs, to_confirm, verdict, without
from pytest_harness.mutation_runner import child_limit, MIN_TIMEOUT_S, TIMEOUT_FACTOR


def test_a_kill_rests_on_the_first_failing_test_only():
    run = MutantRun(["t1", "t2", "t3"], "failed", ["t2"])
    assert needs(run, set(), set()) == {"t2"}
    assert needs(run, {"t2"}, set()) == set()
    assert verdict(run, set()) == "failed"
    assert verdict(run, {"t1"}) == "failed"          # t1 passed against the mutant anyway


def test_a_kill_by_a_test_that_fails_on_the_original_is_judged_again_without_it():
    run = MutantRun(["t1", "t2", "t3"], "failed", ["t2"])
    assert verdict(run, {"t2"}) is None
    assert without(run, {"t2"}) == ["t1", "t3"]
    assert verdict(MutantRun(["t2"], "failed", ["t2"]), {"t2"}) == "unjudged"   # nothing left to judge it


def test_a_survivor_needs_one_of_its_tests_passing_on_the_original():
    run = MutantRun(["fast", "slow"], "passed", [])
    assert needs(run, set(), set()) == {"fast"}                 # its fastest test
    assert needs(run, set(), set(), wanted={"slow"}) == set()   # one confirmed for another verdict will do
    assert needs(run, {"slow"}, set()) == set()
    assert needs(run, {"fast"}, {"fast"}) == {"slow"}           # that one fails there: the next
    assert needs(run, {"fast", "slow"}, {"fast", "slow"}) == set()
    assert verdict(run, {"fast"}) == "passed"
    assert verdict(run, {"fast", "slow"}) == "unjudged"         # as the baseline-first method says


def test_a_timeout_or_error_rests_on_every_test_it_ran():
    for status in ("timeout", "error"):
        run = MutantRun(["t1", "t2"], status, [])
        assert needs(run, set(), set()) == {"t1", "t2"}
        assert verdict(run, set()) == status
        assert verdict(run, {"t2"}) is None      # the broken test may be what hung: judge it again


def test_a_failure_without_a_reported_test_rests_on_all_of_them():
    run = MutantRun(["t1", "t2"], "failed", [])
    assert needs(run, set(), set()) == {"t1", "t2"}
    assert verdict(run, set()) == "failed" and verdict(run, {"t1"}) is None


def test_a_run_judged_again_rests_on_all_its_tests():
    run = MutantRun(["t2", "t3"], "failed", ["t2"], again=True)
    assert needs(run, set(), set()) == {"t2", "t3"}
    assert verdict(run, set()) == "failed" and verdict(run, {"t3"}) is None


def test_only_unconfirmed_tests_are_confirmed_and_survivors_ride_on_kills():
    runs = {"R:1": MutantRun(["b", "a"], "failed", ["b"]), "R:2": MutantRun(["c", "b"], "passed", []),
            "R:3": MutantRun(["d"], "failed", ["d"]), "R:4": MutantRun(["e", "f"], "passed", [])}
    assert to_confirm(runs, set()) == ["b", "d", "e"]            # R:2 rides on b, R:4 needs its fastest
    assert to_confirm(runs, {"b", "d", "e"}) == []
    assert to_confirm(runs, {"b", "d", "e"}, {"b"}) == ["c"]     # b fails on the original: R:2 needs c


def test_a_mutant_child_gets_five_times_its_tests_evidence_time_and_at_least_the_minimum():
    assert child_limit(["a"], {"a": 0.1}) == MIN_TIMEOUT_S
    assert child_limit(["a", "b"], {"a": 1.0, "b": 1.0, "c": 9.0}) == TIMEOUT_FACTOR * 2.0


def test_a_child_report_longer_than_the_pipe_never_blocks_it_bug():
    """Bug: the runner read a child's report (the failed node ids) only after the child exited, so
    a report over the pipe's 64 KiB blocked the child until its time limit killed it (a baseline
    with ~800 failing tests read as "timeout": nothing judged)."""
    import os

    from pytest_harness.mutation_runner import _wait

    report = b"x" * (1 << 18)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child leaves through os._exit
        os.close(read_fd)
        data = report
        while data:
            data = data[os.write(write_fd, data):]
        os._exit(0)
    os.close(write_fd)
    code, raw = _wait(pid, 30.0, read_fd)
    assert code == 0 and raw == report


def test_a_child_that_closes_its_report_pipe_early_is_still_waited_for():
    """The wait watches the pipe and the child's pidfd: a pipe at its end before the child exits
    (code under test may close descriptors) must not end the wait or lose the exit code."""
    import os

    from pytest_harness.mutation_runner import _wait

    read_fd, write_fd = os.pipe()
    gate_r, gate_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child leaves through os._exit
        os.close(read_fd)
        os.close(gate_w)
        os.write(write_fd, b"early")
        os.close(write_fd)
        os.read(gate_r, 1)  # until the parent lets it go: the pipe has ended first
        os._exit(3)
    os.close(write_fd)
    os.close(gate_r)
    assert os.read(read_fd, 5) == b"early" and os.read(read_fd, 1) == b""  # the pipe's end, child alive
    os.close(gate_w)
    code, raw = _wait(pid, 30.0, read_fd)
    assert code == 3 and raw == b""


def test_a_child_past_its_time_limit_is_killed_and_reads_as_none():
    """A mutant that hangs (here: blocked on a pipe nobody writes) is killed at its limit: exit code None."""
    import os

    from pytest_harness.mutation_runner import _wait

    read_fd, write_fd = os.pipe()
    gate_r, gate_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - killed by the parent
        os.close(read_fd)
        os.close(gate_w)
        os.read(gate_r, 1)
        os._exit(0)
    os.close(write_fd)
    os.close(gate_r)
    try:
        code, raw = _wait(pid, 0.05, read_fd)
    finally:
        os.close(gate_w)
    assert code is None and raw == b""
    with pytest.raises(ChildProcessError):  # reaped by _wait: nothing left to wait for
        os.waitpid(pid, os.WNOHANG)
