"""pytest_harness checks / forgery / measure / digest: pure tables, then the plugin through pytester."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from pytest_harness import checks, forgery, measure

pytest_plugins = ["pytester"]
# anyio's and xdist's plugins have nothing to do with these tests (anyio's costs ~0.4 s of CPU a
# session: its modules are assertion-rewritten from source without a bytecode cache).
FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-p", "no:anyio", "-p", "no:xdist")


@pytest.mark.parametrize("source, real, fake", [
    ("assert x == 1", 1, []),
    ("assert True", 0, ["constant assert"]),
    ("assert 1", 0, ["constant assert"]),
    ("assert 'a' in 'a'", 0, ["compares literals"]),
    ("assert 1 + 1 == 2", 0, ["compares literals"]),
    ("assert (1, 2) == (1, 2)", 0, ["compares literals"]),
    ("assert x == x", 0, ["same expression on both sides"]),
    ("assert f(a) is f(a)", 0, ["same expression on both sides"]),
    ("assert x or True", 0, ["or with a truthy literal"]),
    ("assert not x", 1, []),
    ("assert f(x) == f(y)", 1, []),
    ("assert x == 1 == x", 1, []),  # not adjacent: a real chain
    ("with pytest.raises(ValueError):\n    f()", 1, []),
    ("with raises(ValueError):\n    f()", 1, []),
    ("pytest.raises(ValueError, f, 1)", 1, []),
    ("with pytest.warns(UserWarning):\n    f()", 1, []),
    ("self.assertEqual(a, b)", 1, []),
    ("self.assertRaises(E, f)", 1, []),
    ("other.assertEqual(a, b)", 0, []),  # not unittest's self
    ("print(x)", 0, []),
    ("def broken(:", 0, []),
])
def test_check_sites(source, real, fake):
    sites = checks.find_sites(source)
    assert sum(1 for s in sites if s.fake is None) == real
    assert [s.fake for s in sites if s.fake] == fake


def test_a_multiline_assert_counts_when_any_of_its_lines_ran():
    sites = checks.find_sites("assert (\n    value\n    == 3\n)\n")
    assert checks.executed_sites(sites, {3}) == sites
    assert checks.executed_sites(sites, {5}) == []


@pytest.mark.parametrize("source, what", [
    ("def pytest_runtest_makereport(item, call):\n    pass", "defines hook pytest_runtest_makereport"),
    ("class P:\n    def pytest_report_teststatus(self, report):\n        pass", "defines hook pytest_report_teststatus"),
    ("def pytest_sessionfinish(session):\n    pass", "defines hook pytest_sessionfinish"),
    ("def pytest_collection_modifyitems(items):\n    items.clear()", "defines hook pytest_collection_modifyitems"),
    ("def pytest_pyfunc_call(pyfuncitem):\n    return True", "defines hook pytest_pyfunc_call"),
    ("import atexit", "imports atexit"),
    ("from atexit import register", "imports atexit"),
    ("m = __import__('atexit')", "names the atexit module"),
    ("import pytest_harness.plugin", "imports the harness plugin (pytest_harness)"),
    ("os.environ.pop('HARNESS_EVIDENCE_PATH')", "reaches into the harness plugin (HARNESS_EVIDENCE_PATH)"),
])
def test_forgery_scan_names_the_hook(source, what):
    found = forgery.scan_source("tests/conftest.py", source)
    assert [f["what"] for f in found] == [what] and found[0]["file"] == "tests/conftest.py"


@pytest.mark.parametrize("source", [
    '"""Docs may mention pytest_harness and atexit."""\nimport pytest\n\n@pytest.fixture\ndef db():\n    return 1\n',
    "def pytest_configure(config):\n    config.addinivalue_line('markers', 'x: y')\n",
    "def broken(:\n",
])
def test_forgery_scan_leaves_honest_code_alone(source):
    assert forgery.scan_source("conftest.py", source) == []


@pytest.mark.parametrize("rel, test_code", [
    ("tests/test_a.py", True), ("tests/conftest.py", True), ("conftest.py", True), ("tests/helpers.py", True),
    ("test_x.py", True), ("pkg/x_test.py", True), ("src/main.py", False), ("src/tests_util.py", False),
])
def test_is_test_code(rel, test_code):
    assert measure.is_test_code(rel) is test_code


def test_make_proof_counts_checks_in_test_code_and_lines_in_implementation(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test():\n    assert f() == 2\n    assert True\n")
    proof = measure.make_proof({"tests/test_a.py": {2, 3}, "src/a.py": {1, 4}}, measure.SiteCache(tmp_path))
    assert proof == {"checks": 1, "fake_checks": ["tests/test_a.py:3 constant assert"],
                     "executed": {"src/a.py": 2}, "lines": {"src/a.py": [1, 4]}}


# ---- through the plugin ---------------------------------------------------------------------

def _evidence(pytester, tmp_path, *args):
    out = tmp_path / "ev.json"
    result = pytester.runpytest_subprocess(*FAST, "--harness-evidence", str(out), *args)
    return result, json.loads(out.read_text())


@pytest.mark.slow
def test_only_the_call_phase_counts_as_executing_code(pytester, tmp_path):
    pytester.makepyfile(calc="def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n")
    pytester.makeconftest("import pytest\nfrom calc import sub\n\n@pytest.fixture\ndef warm():\n"
                          "    return sub(2, 1)\n")
    pytester.makepyfile(test_calc="""
        import pytest
        from calc import add

        @pytest.mark.req("REQ-001")
        def test_adds():
            assert add(1, 2) == 3

        @pytest.mark.req("REQ-002")
        def test_only_the_fixture_runs_code(warm):
            assert warm == 1
    """)
    req_files = json.dumps({"REQ-001": ["calc.py"], "REQ-002": ["calc.py"]})
    result, doc = _evidence(pytester, tmp_path, "--harness-reqs", "REQ-001,REQ-002", "--harness-req-files", req_files)
    assert result.ret == 0
    assert doc["tests"]["test_calc.py::test_adds"]["lines"] == {"calc.py": [2]}
    assert doc["tests"]["test_calc.py::test_only_the_fixture_runs_code"]["executed"] == {}
    assert doc["requirements"]["REQ-001"]["status"] == "verified"
    assert doc["requirements"]["REQ-002"]["status"] == "weak"
    assert doc["requirements"]["REQ-002"]["weak_reasons"] == {
        "test_calc.py::test_only_the_fixture_runs_code": "its call executed none of calc.py"}


@pytest.mark.slow
def test_forging_conftest_makes_the_document_untrusted(pytester, tmp_path):
    pytester.makeconftest("import pytest\n\n@pytest.hookimpl(hookwrapper=True)\n"
                          "def pytest_runtest_makereport(item, call):\n    outcome = yield\n"
                          "    rep = outcome.get_result()\n    if rep.failed:\n        rep.outcome = 'passed'\n")
    pytester.makepyfile("import pytest\n\n@pytest.mark.req('REQ-001')\ndef test_broken():\n    assert len('ab') == 3\n")
    result, doc = _evidence(pytester, tmp_path, "--harness-reqs", "REQ-001")
    assert result.ret == 0  # the forgery worked on pytest's own verdict ...
    assert doc["trusted"] is False and doc["requirements"]["REQ-001"]["status"] == "untrusted"
    assert doc["gate"]["passed"] is False  # ... but not on the evidence
    assert "evidence untrusted: conftest.py:4 defines hook pytest_runtest_makereport" in doc["gate"]["reasons"]


@pytest.mark.slow
def test_digest_is_sent_over_the_inherited_fd(pytester, tmp_path):
    pytester.makepyfile("import pytest\n\n@pytest.mark.req('REQ-001')\ndef test_ok():\n    assert len('ab') == 2\n")
    read_fd, write_fd = os.pipe()
    out = tmp_path / "ev.json"
    try:
        import subprocess
        import sys

        subprocess.run([sys.executable, "-m", "pytest", *FAST, "--harness-evidence", str(out),
                        "--harness-digest-fd", str(write_fd)], cwd=pytester.path, pass_fds=(write_fd,),
                       capture_output=True, timeout=120, check=True)
        os.close(write_fd)
        sent = os.read(read_fd, 4096).decode()
    finally:
        os.close(read_fd)
    assert sent == "sha256:" + hashlib.sha256(out.read_bytes()).hexdigest() + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("flag, value, message", [
    ("--harness-req-files", "{not json", "not valid JSON"),
    ("--harness-req-files", '{"REQ-1x": ["a.py"]}', "expected"),
    ("--harness-digest-fd", "two", "file descriptor"),
])
def test_bad_plugin_options_are_usage_errors_naming_the_flag(pytester, tmp_path, flag, value, message):
    pytester.makepyfile("def test_ok():\n    assert len('a') == 1\n")
    result = pytester.runpytest_subprocess(*FAST, "--harness-evidence", str(tmp_path / "e.json"), flag, value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert flag in result.stderr.str() and message in result.stderr.str()
