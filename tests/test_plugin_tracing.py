"""Issue 52, cost: only what a verdict needs is line-traced (marked tests' call phases; nothing for
a bare threshold, said so), with a coverage core that keeps per-test contexts on every Python."""

from __future__ import annotations

import json

import pytest

from pytest_harness import coverage_map

pytest_plugins = ["pytester"]
FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-p", "no:anyio", "-p", "no:xdist")
TESTS = """
import pytest
from calc import add

@pytest.mark.req("REQ-001")
def test_marked():
    assert add(1, 2) == 3

@pytest.mark.req("REQ-002")
def test_marked_but_proves_nothing():
    add(2, 2)
    assert True

def test_unmarked():
    assert add(2, 3) == 5
"""


def _project(pytester) -> None:
    pytester.makepyfile(calc="def add(a, b):\n    return a + b\n")
    pytester.makepyfile(test_calc=TESTS)


@pytest.mark.slow
def test_unmarked_tests_are_not_line_traced(pytester, tmp_path):
    _project(pytester)
    out = tmp_path / "ev.json"
    result = pytester.runpytest_subprocess(*FAST, f"--harness-evidence={out}")
    doc = json.loads(out.read_text())
    assert result.ret == 0
    tests = doc["tests"]
    assert tests["test_calc.py::test_marked"]["lines"] == {"calc.py": [2]}
    assert tests["test_calc.py::test_unmarked"]["lines"] is None      # not traced: unknown, not "ran nothing"
    assert tests["test_calc.py::test_unmarked"]["checks"] is None
    assert doc["requirements"]["REQ-002"]["status"] == "weak"
    assert doc["tracing"] == {"traced": "marked tests, call phase", "why": None,
                              "core": coverage_map.tracer_core()}   # this machine: Python 3.11, ctrace


@pytest.mark.slow
def test_threshold_alone_traces_nothing_and_says_so(pytester):
    _project(pytester)
    result = pytester.runpytest_subprocess(*FAST, "--harness-fail-under=100")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["*no test was line-traced (only a threshold was asked)*--harness-trace=marked*"])
    judged = pytester.runpytest_subprocess(*FAST, "--harness-fail-under=100", "--harness-trace=marked")
    assert judged.ret == 1
    judged.stdout.fnmatch_lines(["REQ-002*weak*"])


@pytest.mark.slow
def test_trace_off_with_evidence_records_why(pytester, tmp_path):
    _project(pytester)
    out = tmp_path / "ev.json"
    pytester.runpytest_subprocess(*FAST, f"--harness-evidence={out}", "--harness-trace=off")
    doc = json.loads(out.read_text())
    assert doc["tracing"] == {"traced": "nothing", "why": "tracing is off (harness_trace = off)", "core": None}
    assert doc["tests"]["test_calc.py::test_marked"]["checks"] is None


@pytest.mark.slow
def test_bad_trace_value_is_a_usage_error(pytester):
    _project(pytester)
    result = pytester.runpytest_subprocess(*FAST, "--harness-fail-under=1", "--harness-trace=sometimes")
    assert result.ret == 4
    assert "--harness-trace: expected auto, marked or off" in result.stderr.str()


@pytest.mark.slow
def test_threads_started_by_unmarked_tests_are_not_traced(pytester, tmp_path):
    pytester.makepyfile(calc="def add(a, b):\n    return a + b\n")
    pytester.makepyfile(test_threads="""
        import sys
        import threading

        import pytest
        from calc import add
        from pytest_harness.coverage_map import tracer_core

        PER_THREAD = tracer_core() == "ctrace"  # sysmon: process-wide, no thread has a trace function

        def _run_in_thread():
            seen = []
            thread = threading.Thread(target=lambda: seen.append((sys.gettrace() is not None, add(1, 1))))
            thread.start()
            thread.join()
            return seen[0]

        def test_unmarked_thread():
            assert _run_in_thread() == (False, 2)

        @pytest.mark.req("REQ-001")
        def test_marked_thread():
            assert _run_in_thread() == (PER_THREAD, 2)
    """)
    out = tmp_path / "ev.json"
    result = pytester.runpytest_subprocess(*FAST, f"--harness-evidence={out}", "-p", "no:randomly")
    assert result.ret == 0, result.stdout.str()
    doc = json.loads(out.read_text())
    assert doc["tests"]["test_threads.py::test_marked_thread"]["lines"]["calc.py"] == [2]


@pytest.mark.parametrize("version, core", [((3, 11), "ctrace"), ((3, 11, 9), "ctrace"), ((3, 12), "sysmon"),
                                           ((3, 13, 1), "sysmon"), ((3, 14), "sysmon"), ((4, 0), "sysmon")])
def test_the_tracer_core_is_sysmon_from_python_3_12_and_ctrace_before(version, core):
    """#52: coverage.py's sys.monitoring core, the lowest-overhead one, where Python has it (3.12+);
    the C tracer before. Before, `ctrace` on every version."""
    assert coverage_map.tracer_core(version) == core


def test_phase_coverage_asks_coverage_for_the_core_of_this_python(tmp_path):
    import sys

    cov = coverage_map.PhaseCoverage(tmp_path)
    expected = "sysmon" if sys.version_info >= (3, 12) else "ctrace"
    assert cov.core == expected and cov._cov.get_option("run:core") == expected
    assert {"no-sysmon-context", "no-data-collected"} <= set(cov._cov.get_option("run:disable_warnings"))
