"""Issue 52, for any project: compare with an earlier evidence document (status changes, stale
verified requirements) and requirement coverage as GitHub annotations and Cobertura XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from pytest_harness import baseline, ci_formats

pytest_plugins = ["pytester"]
FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-p", "no:anyio", "-p", "no:xdist")


def _doc(statuses: dict, files: dict, tests: dict) -> dict:
    reqs = {rid: {"status": s, "tests": [n for n, t in tests.items() if rid in t["reqs"]]} for rid, s in statuses.items()}
    return {"requirements": reqs, "tests": tests, "snapshot": {"files": files}}


def _test(rid, outcome="passed", lines=None, carried=None):
    entry = {"reqs": [rid], "outcome": outcome, "lines": lines}
    if carried:
        entry["carried_from"] = carried
    return entry


def test_compare_reports_status_changes_and_stale_requirements():
    old = _doc({"A-1": "verified", "A-2": "verified", "A-3": "verified", "A-4": "failing"},
               {"a.py": "sha256:1", "b.py": "sha256:2", "tests/test_x.py": "sha256:3"},
               {"tests/test_x.py::t1": _test("A-1", lines={"a.py": [1]}),
                "tests/test_x.py::t2": _test("A-2", lines={"b.py": [1]}),
                "tests/test_y.py::t3": _test("A-3", lines={"b.py": [2]})})
    new = _doc({"A-1": "not_run", "A-2": "verified", "A-3": "verified", "A-5": "uncovered"},
               {"a.py": "sha256:CHANGED", "b.py": "sha256:CHANGED", "tests/test_x.py": "sha256:3"},
               {"tests/test_x.py::t1": _test("A-1", outcome="not_run"),
                "tests/test_x.py::t2": _test("A-2", lines={"b.py": [1]}),
                "tests/test_y.py::t3": _test("A-3", carried="earlier.json")})
    block = baseline.compare(old, new, "old.json")
    assert block["changed"] == [{"id": "A-1", "was": "verified", "now": "not_run"},
                                {"id": "A-4", "was": "failing", "now": "absent"},
                                {"id": "A-5", "was": "absent", "now": "uncovered"}]
    # A-2 ran again and passed: fresh. A-3 was only carried (not run now) and its file changed: stale.
    assert block["stale"] == {"A-1": ["a.py"], "A-3": ["b.py"]}


def test_unusable_baseline_is_a_one_line_reason(tmp_path):
    (tmp_path / "b.json").write_text('{"tests": {}}')
    with pytest.raises(ValueError, match="is not an evidence document"):
        baseline.load(tmp_path / "b.json")
    with pytest.raises(ValueError, match="cannot read baseline"):
        baseline.load(tmp_path / "none.json")


def test_github_annotations_escape_and_point_at_files():
    doc = {"requirements": {"R-1": {"status": "failing", "tests": ["tests/t.py::a"], "title": "50% off, now"},
                            "R-2": {"status": "uncovered", "tests": []}, "R-3": {"status": "verified", "tests": []}},
           "tests": {"tests/t.py::a": {"outcome": "failed"}}, "baseline": {"stale": {"R-3": ["src/x.py"]}}}
    lines = ci_formats.github_annotations(doc, "reqs.toml", {"R-2": 7})
    assert lines == ["::error file=tests/t.py,title=R-1 failing::50%25 off, now: a failed",
                     "::error file=reqs.toml,line=7,title=R-2 uncovered::no test is marked with this id",
                     "::warning title=R-3 stale::verified in the baseline; changed since: src/x.py"]


def test_cobertura_line_rate_is_the_verified_share():
    doc = {"requirements": {"R-1": {"status": "verified"}, "R-2": {"status": "weak"}}}
    root = ET.fromstring(ci_formats.cobertura(doc, "reqs.toml", {"R-1": 2}, "/src"))
    assert root.get("line-rate") == "0.5000" and root.get("lines-valid") == "2"
    lines = {c.get("name"): (c.get("filename"), c.find("lines/line").attrib) for c in root.iter("class")}
    assert lines == {"R-1": ("reqs.toml", {"number": "2", "hits": "1"}), "R-2": ("reqs.toml", {"number": "2", "hits": "0"})}


# ---- through the plugin ---------------------------------------------------------------------

@pytest.mark.slow
def test_harness_baseline_marks_a_deselected_requirement_stale_after_its_code_changed(pytester, tmp_path):
    pytester.makefile(".toml", reqs='[requirements]\nCALC-1 = "adds"\nCALC-2 = "subtracts"\n')
    pytester.makepyfile(calc="def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    pytester.makepyfile(test_calc="import pytest\nfrom calc import add, sub\n\n@pytest.mark.req('CALC-1')\n"
                                  "def test_add():\n    assert add(2, 3) == 5\n\n@pytest.mark.req('CALC-2')\n"
                                  "def test_sub():\n    assert sub(3, 2) == 1\n")
    first = tmp_path / "first.json"
    assert pytester.runpytest_subprocess(*FAST, "--harness-requirements-file=reqs.toml",
                                         f"--harness-evidence={first}").ret == 0
    (pytester.path / "calc.py").write_text("def add(a, b):\n    return b + a\n\n\ndef sub(a, b):\n    return a + b\n")
    second, cobertura = tmp_path / "second.json", tmp_path / "reqs.xml"
    result = pytester.runpytest_subprocess(*FAST, "--harness-requirements-file=reqs.toml", "-k", "test_sub",
                                           f"--harness-evidence={second}", f"--harness-baseline={first}",
                                           "--harness-annotations=github", f"--harness-cobertura={cobertura}")
    doc = json.loads(second.read_text())
    assert doc["baseline"]["changed"] == [{"id": "CALC-1", "was": "verified", "now": "not_run"},
                                          {"id": "CALC-2", "was": "verified", "now": "failing"}]
    assert doc["baseline"]["stale"] == {"CALC-1": ["calc.py"]}   # CALC-2's test ran now: judged, not stale
    result.stdout.fnmatch_lines(["baseline: CALC-1 verified -> not_run",
                                 "baseline: CALC-1 stale: verified in the baseline, since changed: calc.py",
                                 "::error file=test_calc.py,title=CALC-1 not_run::adds: no linked test passed*",
                                 "::error file=test_calc.py,title=CALC-2 failing::subtracts: test_sub failed",
                                 "::warning title=CALC-1 stale::*"])
    root = ET.fromstring(cobertura.read_text())
    assert root.get("lines-covered") == "0" and root.get("lines-valid") == "2"
    assert [line.get("number") for line in root.iter("line")] == ["2", "3"]


@pytest.mark.slow
def test_harness_baseline_that_is_not_evidence_is_a_usage_error(pytester, tmp_path):
    pytester.makepyfile(test_a="def test_a():\n    assert abs(-1) == 1\n")
    (tmp_path / "bad.json").write_text("[1, 2]")
    result = pytester.runpytest_subprocess(*FAST, f"--harness-baseline={tmp_path / 'bad.json'}")
    assert result.ret == 4
    assert "--harness-baseline: baseline" in result.stderr.str() and "is not an evidence document" in result.stderr.str()
