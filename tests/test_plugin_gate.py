"""Issue 18: the plugin as any project's CI gate — settings, requirements files, fail-under, table."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_harness import evidence, gate
from pytest_harness.requirements_file import load_requirements_file
from pytest_harness.settings import Raw, validate_fail_under, validate_pattern

pytest_plugins = ["pytester"]

# anyio's plugin has nothing to do with these tests (~0.4 s of CPU a session: its modules are
# assertion-rewritten from source without a bytecode cache).
FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:anyio")
HARNESS_ENV = ("HARNESS_EVIDENCE_PATH", "HARNESS_REQS", "HARNESS_RUN_ID", "HARNESS_REQUIREMENTS_FILE",
               "HARNESS_ID_PATTERN", "HARNESS_FAIL_UNDER", "HARNESS_REPORT")
MARKED = """
import pytest

@pytest.mark.req("AUTH-001")
def test_login():
    page = "login"
    assert page.startswith("log")

@pytest.mark.req("AUTH-002")
def test_logout():
    page = "logout"
    assert page.endswith("out")
"""


@pytest.fixture(autouse=True)
def _clean_harness_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in HARNESS_ENV:
        monkeypatch.delenv(name, raising=False)


def _raw(value: str, source: str = "--flag") -> Raw:
    return Raw(value, source, Path("."))


# ---- pure parts -----------------------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [
    ("100", 100.0), ("87.5", 87.5), ("0", 0.0), (" 90% ", 90.0),
    ("101", None), ("-1", None), ("lots", None), ("", None),
])
def test_fail_under_values(value, expected):
    if expected is None:
        with pytest.raises(pytest.UsageError, match=r"--flag: expected a percentage 0-100"):
            validate_fail_under(_raw(value))
    else:
        assert validate_fail_under(_raw(value)) == expected


def test_id_pattern_default_and_invalid():
    assert validate_pattern(None) is evidence.DEFAULT_ID_RE
    assert validate_pattern(_raw(r"REQ-\d{3}")).fullmatch("REQ-1000") is None
    assert validate_pattern(_raw(r"REQ-\d+")).fullmatch("REQ-\u0661") is None  # \d is ASCII only
    with pytest.raises(pytest.UsageError, match="ini harness_id_pattern: invalid regular expression"):
        validate_pattern(_raw("REQ-(", "ini harness_id_pattern"))


@pytest.mark.parametrize("name, text, titles", [
    ("r.toml", '[requirements]\nAUTH-002 = "Log out"\nAUTH-001 = "Log in"\n',
     {"AUTH-001": "Log in", "AUTH-002": "Log out"}),
    ("r.toml", '[[requirement]]\nid = "FR-12"\ntitle = "Export"\n[[requirement]]\nid = "FR-2"\n',
     {"FR-12": "Export", "FR-2": ""}),
    ("r.csv", "id,title\nREQ-1000,Big ids, with a comma\n\n# comment\nREQ-001,Small\n",
     {"REQ-001": "Small", "REQ-1000": "Big ids, with a comma"}),
])
def test_requirements_file_forms(tmp_path, name, text, titles):
    path = tmp_path / name
    path.write_text(text)
    assert load_requirements_file(path, evidence.DEFAULT_ID_RE) == titles


@pytest.mark.parametrize("name, text, message", [
    ("r.csv", "id,title\nreq-1,lower\n", r"line 2: malformed requirement id 'req-1'"),
    ("r.csv", "A-1,x\nA-1,y\n", r"line 2: duplicate requirement id 'A-1'"),
    ("r.csv", "id,title\n", "no requirements listed"),
    ("r.toml", "[requirements\n", "invalid TOML"),
    ("r.toml", "requirements = 3\n", "must be a table"),
    ("r.json", "{}", "must end in .toml or .csv"),
    ("missing.csv", None, "cannot read requirements file"),
])
def test_requirements_file_errors_name_the_file_and_row(tmp_path, name, text, message):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_requirements_file(path, evidence.DEFAULT_ID_RE)


@pytest.mark.parametrize("statuses, threshold, percent, met", [
    (["verified", "verified"], 100, 100.0, True),
    (["verified", "uncovered"], 100, 50.0, False),
    (["verified", "uncovered"], 50, 50.0, True),
    (["verified", "weak", "failing"], 33, 33.33, True),
    ([], 0, 0.0, False),  # nothing to verify never passes
])
def test_make_fail_under(statuses, threshold, percent, met):
    reqs = {f"R-{i}": {"status": s} for i, s in enumerate(statuses)}
    block = gate.make_fail_under(reqs, threshold)
    assert (block["percent"], block["met"], block["total"]) == (percent, met, len(statuses))


def _req(status, tests=(), weak=(), **counts):
    return {"status": status, "tests": list(tests), "weak": list(weak),
            "counts": {name: counts.get(name, 0) for name in evidence.OUTCOMES}}


@pytest.mark.parametrize("req, tests, reason", [
    (_req("verified", ["t.py::a"], passed=1), {}, ""),
    (_req("uncovered"), {}, "no test is marked with this id"),
    (_req("failing", ["t.py::a", "t.py::b"], passed=1, failed=1),
     {"t.py::a": {"outcome": "passed"}, "t.py::b": {"outcome": "failed"}}, "b failed"),
    (_req("not_run", ["t.py::a", "t.py::b"], skipped=1, xfailed=1), {}, "no linked test passed (skipped 1, xfailed 1)"),
    (_req("weak", ["t.py::a"], ["t.py::a"], passed=1), {}, "passing tests prove nothing: a"),
    ({**_req("weak", ["t.py::a"], ["t.py::a"], passed=1), "weak_reasons": {"t.py::a": "mutation audit: 1/4 killed"}},
     {}, "passing tests miss broken code: a (mutation audit: 1/4 killed)"),
])
def test_requirement_reason(req, tests, reason):
    assert gate.requirement_reason(req, tests) == reason


def test_format_table_aligns_and_clips():
    rows = [{"id": "A-1", "title": "t" * 60, "status": "verified", "tests": "1/1", "reason": ""},
            {"id": "LONGER-22", "title": "", "status": "uncovered", "tests": "0/0", "reason": "no test"}]
    lines = gate.format_table(rows)
    assert lines[0].split() == ["ID", "TITLE", "STATUS", "PASSED/TESTS", "REASON"]
    assert lines[1].startswith("A-1        " + "t" * 37 + "...")
    assert lines[2].index("uncovered") == lines[1].index("verified")


# ---- the gate, end to end -------------------------------------------------------------------

def test_fail_under_fails_the_run_and_the_table_names_the_uncovered_id(pytester):
    pytester.makepyfile(test_app=MARKED)
    result = pytester.runpytest_inprocess(*FAST, "--harness-reqs=AUTH-001,AUTH-002,AUTH-003",
                                          "--harness-fail-under=100")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=2)
    out = result.stdout.str()
    assert re.search(r"AUTH-003\s+uncovered\s+0/0\s+no test is marked with this id", out)
    assert re.search(r"AUTH-001\s+verified\s+1/1", out)
    assert "2/3 requirements verified (66.67%); fail-under 100% NOT met" in out


def test_fail_under_met_exits_zero(pytester):
    pytester.makepyfile(test_app=MARKED)
    result = pytester.runpytest_inprocess(*FAST, "--harness-reqs=AUTH-001,AUTH-002", "--harness-fail-under=100")
    assert result.ret == pytest.ExitCode.OK
    assert "2/2 requirements verified (100%); fail-under 100% met" in result.stdout.str()


def test_fail_under_below_threshold_but_met_share_passes(pytester):
    pytester.makepyfile(test_app=MARKED)
    result = pytester.runpytest_inprocess(*FAST, "--harness-reqs=AUTH-001,AUTH-002,AUTH-003,AUTH-004",
                                          "--harness-fail-under=50")
    assert result.ret == pytest.ExitCode.OK


def test_failing_tests_keep_their_own_exit_code(pytester):
    pytester.makepyfile(test_app=MARKED + "\n@pytest.mark.req('AUTH-003')\ndef test_x():\n    assert False\n")
    result = pytester.runpytest_inprocess(*FAST, "--harness-fail-under=100")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert re.search(r"AUTH-003\s+failing\s+0/1\s+test_x failed", result.stdout.str())


@pytest.mark.slow
def test_settings_precedence_ini_then_env_then_cli(pytester, monkeypatch):
    pytester.makepyfile(test_app=MARKED)
    pytester.makeini("[pytest]\nharness_reqs = AUTH-001,AUTH-002,AUTH-003\nharness_fail_under = 100\n")
    from_ini = pytester.runpytest_inprocess(*FAST)
    assert from_ini.ret == pytest.ExitCode.TESTS_FAILED                                 # ini: 100
    out = from_ini.stdout.str()   # bug: said '--harness-fail-under=100' though no such flag was given
    assert "fail-under 100% NOT met" in out and "--harness-fail-under" not in out
    monkeypatch.setenv("HARNESS_FAIL_UNDER", "60")
    assert pytester.runpytest_inprocess(*FAST).ret == pytest.ExitCode.OK                # env 60 beats ini
    result = pytester.runpytest_inprocess(*FAST, "--harness-fail-under=90")             # CLI beats env
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "fail-under 90% NOT met" in result.stdout.str()


@pytest.mark.slow
def test_bad_setting_is_a_usage_error_naming_its_source(pytester, monkeypatch):
    pytester.makepyfile(test_app=MARKED)
    pytester.makeini("[pytest]\nharness_fail_under = most\n")
    result = pytester.runpytest_subprocess(*FAST)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "ini harness_fail_under: expected a percentage 0-100, got 'most'" in result.stderr.str()
    monkeypatch.setenv("HARNESS_FAIL_UNDER", "200")
    assert "HARNESS_FAIL_UNDER: expected a percentage" in pytester.runpytest_subprocess(*FAST).stderr.str()


def test_requirements_file_from_ini_is_relative_to_the_ini_and_gives_titles(pytester, tmp_path):
    pytester.makepyfile(test_app=MARKED)
    (pytester.path / "docs").mkdir()
    (pytester.path / "docs" / "reqs.toml").write_text(
        '[requirements]\nAUTH-001 = "Users log in"\nAUTH-002 = "Users log out"\nAUTH-009 = "Audit log"\n')
    pytester.makeini("[pytest]\nharness_requirements_file = docs/reqs.toml\n")
    out = tmp_path / "e.json"
    result = pytester.runpytest_inprocess(*FAST, f"--harness-evidence={out}")
    doc = json.loads(out.read_text())
    assert result.ret == pytest.ExitCode.OK  # no threshold: the gate is reported, the exit code is pytest's
    assert doc["requirements"]["AUTH-001"]["title"] == "Users log in"
    assert doc["requirements"]["AUTH-009"]["status"] == "uncovered"
    assert "fail_under" not in doc
    assert re.search(r"AUTH-009\s+Audit log\s+uncovered", result.stdout.str())


def test_id_pattern_from_ini_rejects_ids_outside_it(pytester, tmp_path):
    pytester.makepyfile(test_app=MARKED)
    pytester.makeini("[pytest]\nharness_id_pattern = REQ-\\d{3}\n")
    out = tmp_path / "e.json"
    pytester.runpytest_inprocess(*FAST, f"--harness-evidence={out}")
    doc = json.loads(out.read_text())
    assert {e["value"] for e in doc["marker_errors"]} == {"AUTH-001", "AUTH-002"}
    assert "expected REQ-\\d{3}" in doc["marker_errors"][0]["error"]


@pytest.mark.slow
def test_bug_8846_equals_form_outside_the_project_keeps_the_project_ini(tmp_path_factory):
    """pytest-dev/pytest#8846: `--harness-evidence PATH` (space form) with PATH outside the
    project makes pytest pick its rootdir/ini from PATH; the documented `=` form keeps them.
    The project and PATH share a parent of their own: the trap's rootdir, which the plugin then
    snapshots and scans (under pytester, the common parent was the whole basetemp)."""
    base = tmp_path_factory.mktemp("trap_8846")
    project = base / "project"
    project.mkdir()
    (project / "test_app.py").write_text(MARKED)
    (project / "pytest.ini").write_text("[pytest]\nharness_reqs = AUTH-001,AUTH-002,AUTH-003\n")
    out = base / "elsewhere" / "e.json"
    out.parent.mkdir()
    out.write_text("{}")  # the trap needs an existing path: a second run in CI

    def pytest_run(*args):
        return subprocess.run([sys.executable, "-m", "pytest", *FAST, *args], cwd=project, capture_output=True,
                              text=True, timeout=300)

    result = pytest_run(f"--harness-evidence={out}")
    assert sorted(json.loads(out.read_text())["requirements"]) == ["AUTH-001", "AUTH-002", "AUTH-003"]
    assert "use --harness-evidence=PATH" not in result.stdout
    warned = pytest_run("--harness-evidence", str(out))
    assert "use --harness-evidence=PATH" in warned.stdout + warned.stderr


def test_plugin_stays_inert_with_only_ini_ids(pytester):
    pytester.makepyfile(test_app=MARKED)
    pytester.makeini("[pytest]\nharness_reqs = AUTH-001\n")
    result = pytester.runpytest_inprocess(*FAST)
    assert result.ret == pytest.ExitCode.OK
    assert "harness requirements" not in result.stdout.str()


@pytest.mark.slow
def test_bug_pytest_help_crashed_on_a_percent_sign_in_an_option_help(pytester):
    """`pytest --help` died with "TypeError: %o format" on "PCT % of the requirements"."""
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--help")
    assert result.ret == pytest.ExitCode.OK
    out = result.stdout.str()
    assert "--harness-fail-under=PCT" in out and "PCT % of the requirements" in out
    assert "harness_requirements_file" in out  # the ini keys are listed too
