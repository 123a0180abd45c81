"""#47: a mutant is killed only when a test's check failed on it (its call phase), not when an
unrelated error ended the test. A real pytest session with the mutation runner over a small project
whose module holds guarded mutants (the audit's own mutator): a fixture that crashes under the
mutant, or an ImportError out of the test, makes the mutant `invalid`; a failed assert kills it.
On the old runner every one of these read "failed" (killed)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from harness.audit.mutator import apply, candidates
from harness.commands.audit import audit_verdict

MODULE = '''import importlib


def total(values):
    out = 0
    for v in values:
        out = out + v
    return out


def module_name(kind):
    return "json" if kind == "text" else "no_such_module_for_the_audit"
'''

CONFTEST = '''import pytest

import calc


@pytest.fixture
def three():
    got = calc.total([1, 2])
    if got != 3:
        raise RuntimeError("fixture could not build its data")  # a crash, not a check
    return got
'''

TESTS = '''import importlib

import calc


def test_total_runs(three):
    assert calc.total([]) is not None


def test_codec_loads():
    assert importlib.import_module(calc.module_name("text")) is not None


def test_codec_name():
    assert calc.module_name("text") == "json"
'''


def _audit_session(tmp_path, runs: list[tuple[str, str, list[str]]]) -> dict:
    """Run the mutation runner over the project; `runs`: (requirement, mutant kind, test names)."""
    sites = candidates(MODULE)
    ids: dict[str, int] = {}
    order = []
    for rid, kind, tests in runs:
        site = next(m for m in sites if m.kind == kind)
        mid = ids.setdefault(site.key, len(ids) + 1)
        order.append([rid, mid, [f"test_calc.py::{t}" for t in tests]])
    (tmp_path / "calc.py").write_text(apply(MODULE, ids), encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_calc.py").write_text(TESTS, encoding="utf-8")
    result = tmp_path / "result.json"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"nonce": "n1", "seconds": 60, "order": order, "result": str(result),
                                "method": "baseline-first"}), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "pytest_harness.mutation_runner", f"--harness-mutants={plan}", "test_calc.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.is_file(), proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(result.read_text(encoding="utf-8"))


def test_a_mutant_that_crashes_a_fixture_is_invalid_not_killed_bug(tmp_path):
    """The arithmetic mutant (`+` → `-`) breaks the fixture's data; the test's own check (`is not
    None`) would pass. Before: the setup error counted as a kill."""
    got = _audit_session(tmp_path, [("REQ-001", "arith", ["test_total_runs"])])
    assert got["baseline"]["status"] == "passed", got
    assert got["results"] == {"REQ-001:1": "invalid"}


def test_an_import_error_out_of_the_test_is_invalid_but_a_failed_assert_kills(tmp_path):
    """The comparison mutant makes `module_name` name a module that does not exist: the test that
    imports it ends with ModuleNotFoundError (invalid), the test that checks the name fails (killed)."""
    got = _audit_session(tmp_path, [("REQ-001", "compare", ["test_codec_loads"]),
                                    ("REQ-002", "compare", ["test_codec_name"])])
    assert got["baseline"]["status"] == "passed", got
    assert got["results"] == {"REQ-001:1": "invalid", "REQ-002:1": "failed"}


def test_a_requirement_whose_mutants_were_all_invalid_fails_the_audit():
    """No mutant judged because every one crashed a fixture is no proof: the bar is not met."""
    verdict, lines = audit_verdict({"REQ-001": {"mutants": 0, "killed": 0, "survived": [], "invalid": 3,
                                                "skipped": None}})
    assert verdict == "FAIL"
    assert lines == ["REQ-001: tests do not detect a broken implementation: 0/0 mutants killed (0 of 0 judged; "
                     "the bar is 50%); 3 invalid (a fixture, import or crash error ended the test: not a kill)"]


@pytest.mark.parametrize("code, report, status", [
    (None, "call\n", "timeout"),                       # hung inside a test's call phase: killed
    (None, "call\nend\n", "invalid"),                  # hung after it (a teardown, the next setup)
    (None, "", "invalid"),                             # hung in the first fixture
    (1, 'call\nend\nresult {"failed": ["t::a"], "errored": []}\n', "failed"),
    (3, 'result {"failed": [], "errored": ["t::a"]}\n', "invalid"),
    (0, 'call\nend\nresult {"failed": [], "errored": []}\n', "passed"),
    (1, "call\n", "error"),                            # exit 1 from the code under test, no report
    (0, 'result {"failed": ["t::a"], "errored": []}\n', "error"),   # code and report disagree
    (2, 'result {"failed": [], "errored": []}\n', "error"),         # the child's own internal error
])
def test_a_childs_exit_and_report_read_as_one_status(code, report, status):
    from pytest_harness.mutation_child import read_report

    assert read_report(code, report.encode())[0] == status
