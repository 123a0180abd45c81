"""Canonical test file for the pytest_harness plugin tests: one test per outcome.

Run with --harness-reqs REQ-001..REQ-010; the expected evidence is stated below
(tests/test_plugin.py reads these two tables). Literal asserts (`assert True`) are no checks.
"""

import time

import pytest


@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")


@pytest.fixture
def bad_teardown():
    yield
    raise RuntimeError("teardown exploded")


@pytest.mark.req("REQ-001")
def test_pass():
    total = sum([1, 1])
    assert total == 2
    assert "a" in str(total) + "abc"
    assert 1 == 1  # a tautology: named, never counted


@pytest.mark.req("REQ-002")
def test_fail():
    assert 1 == 2, "deliberate failure"


@pytest.mark.req("REQ-003")
def test_error(broken):
    assert broken


@pytest.mark.req("REQ-004")
@pytest.mark.skip(reason="not today")
def test_skip():
    assert True


@pytest.mark.req("REQ-005")
@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False


@pytest.mark.req("REQ-005")
@pytest.mark.xfail(reason="already fixed")
def test_xpass():
    assert True


@pytest.mark.req("REQ-006")
@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    assert n > 0


@pytest.mark.req("REQ-001", "REQ-006")
def test_multi():
    with pytest.raises(ZeroDivisionError):
        len([1]) / 0


def test_unlinked():
    assert True


@pytest.mark.req("REQ-007")
def test_no_assert():
    len([1, 2])


@pytest.mark.req("REQ-008")
@pytest.mark.timeout(0.5, method="signal")
def test_timeout():
    time.sleep(5)


@pytest.mark.req("REQ-009")
def test_teardown_error(bad_teardown):
    assert True


EXPECTED_OUTCOMES = {
    "test_pass": "passed", "test_fail": "failed", "test_error": "error", "test_skip": "skipped",
    "test_xfail": "xfailed", "test_xpass": "xpassed", "test_param[1]": "passed",
    "test_param[2]": "passed", "test_multi": "passed", "test_unlinked": "passed",
    "test_no_assert": "passed", "test_timeout": "timeout", "test_teardown_error": "error",
}
EXPECTED_STATUS = {
    "REQ-001": "verified", "REQ-002": "failing", "REQ-003": "failing", "REQ-004": "not_run",
    "REQ-005": "not_run",  # xfailed + xpassed: an xfail-marked test is not evidence
    "REQ-006": "verified", "REQ-007": "weak", "REQ-008": "failing", "REQ-009": "failing",
    "REQ-010": "uncovered",
}
