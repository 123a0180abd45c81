"""Issue 18: where CI looks — pytest-xdist evidence, JUnit XML properties, the HTML/Markdown report."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_harness import report, xdist_support

pytest_plugins = ["pytester"]

CANONICAL = Path(__file__).parent / "data" / "plugin_canonical.py"
ALL_REQS = ",".join(f"REQ-{n:03d}" for n in range(1, 11))
# anyio's plugin has nothing to do with these tests (~0.4 s of CPU a session and in every xdist
# worker: its modules are assertion-rewritten from source without a bytecode cache).
FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-p", "no:anyio", "-o", "enable_assertion_pass_hook=true")


@pytest.fixture(autouse=True)
def _clean_harness_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HARNESS_EVIDENCE_PATH", "HARNESS_REQS", "HARNESS_RUN_ID", "HARNESS_FAIL_UNDER",
                 "HARNESS_REPORT", "HARNESS_REQUIREMENTS_FILE", "HARNESS_ID_PATTERN"):
        monkeypatch.delenv(name, raising=False)


def comparable(doc: dict) -> dict:
    """The document minus what differs between any two runs: durations and the capture files, and
    what records how the session ran rather than what it found (its options and read set: carry.py)."""
    doc = json.loads(json.dumps(doc))
    doc["session"].pop("duration_s")
    doc.pop("snapshot")
    doc.pop("carry_key", None)
    doc.pop("read_set", None)
    for entry in doc["tests"].values():
        entry.pop("duration_s")
    return doc


# ---- xdist ---------------------------------------------------------------------------------

def test_merge_payloads_unites_links_and_keeps_reported_outcomes():
    reported = {"t.py::a": {"reqs": [], "outcome": "passed", "duration_s": 0.1, "assertions": None, "failure": None},
                "t.py::crash": {"reqs": [], "outcome": "failed", "duration_s": 0, "assertions": None,
                                "failure": "worker crashed"}}
    err = {"nodeid": "t.py::b", "value": "bad", "error": "malformed"}
    proof = {"checks": 2, "fake_checks": [], "executed": {}, "lines": {}}
    payloads = [{"links": {"t.py::a": ["A-1"], "t.py::b": []}, "proofs": {"t.py::a": proof},
                 "marker_errors": [err], "collected": 2},
                {"links": {"t.py::a": ["A-1"], "t.py::b": []}, "proofs": {}, "marker_errors": [err],
                 "collected": 2}]
    merged = xdist_support.merge_payloads(payloads, reported)
    assert merged["tests"]["t.py::a"]["reqs"] == ["A-1"] and merged["tests"]["t.py::a"]["outcome"] == "passed"
    assert merged["tests"]["t.py::b"]["outcome"] == "not_run"
    assert merged["tests"]["t.py::crash"]["failure"] == "worker crashed"
    assert merged["proofs"] == {"t.py::a": proof}
    assert merged["marker_errors"] == [err] and merged["collected"] == 2


@pytest.mark.slow
def test_xdist_document_equals_the_serial_document(pytester, tmp_path):
    """Before #18, `-n 2` wrote `collected: 0`, no links and every requirement uncovered."""
    pytester.makepyfile(test_canonical=CANONICAL.read_text())
    docs = {}
    for name, extra in (("serial", ("-p", "no:xdist")), ("xdist", ("-n", "2"))):
        out = tmp_path / f"{name}.json"
        result = pytester.runpytest_subprocess(*FAST, *extra, f"--harness-evidence={out}",
                                               f"--harness-reqs={ALL_REQS}", "--harness-run-id=run_x")
        assert result.ret == 1
        docs[name] = json.loads(out.read_text())
    assert docs["xdist"]["session"]["collected"] == 13
    # the controller did not see the workers' reads: nothing may ever be carried from it (carry.py)
    assert any("xdist" in why for why in docs["xdist"]["read_set"]["unsafe"])
    assert not any("xdist" in why for why in docs["serial"]["read_set"]["unsafe"])
    assert docs["xdist"]["requirements"]["REQ-001"]["status"] == "verified"
    assert comparable(docs["xdist"]) == comparable(docs["serial"])
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # one writer, no temp files


@pytest.mark.slow
def test_xdist_controller_under_filterwarnings_error_still_writes(pytester, tmp_path):
    """toolz (`filterwarnings = error`) with -n 2: the controller, which runs no test, crashed on
    coverage.py's "No data was collected" warning and wrote no document."""
    pytester.makeini("[pytest]\nfilterwarnings =\n    error\n")
    pytester.makepyfile(test_a="import pytest\n@pytest.mark.req('A-1')\ndef test_a():\n    assert sum([1, 2]) == 3\n")
    out = tmp_path / "e.json"
    # one worker is enough: the controller runs no test whatever their number
    result = pytester.runpytest_subprocess(*FAST, "-n", "1", f"--harness-evidence={out}", "--harness-fail-under=100")
    assert result.ret == 0, result.stdout.str()[-3000:]
    assert json.loads(out.read_text())["requirements"]["A-1"]["status"] == "verified"


# ---- JUnit XML ------------------------------------------------------------------------------

def _properties(xml_path: Path) -> dict[str, list[tuple[str, str]]]:
    root = ET.parse(xml_path).getroot()
    return {case.get("name"): [(p.get("name"), p.get("value")) for p in case.iter("property")]
            for case in root.iter("testcase")}


# xdist with one worker: the properties travel in the worker's reports however many workers there are
@pytest.mark.parametrize("extra", [(), ("-n", "1")], ids=["serial", "xdist"])
@pytest.mark.slow
def test_junit_xml_carries_requirement_properties(pytester, tmp_path, extra):
    pytester.makepyfile(test_canonical=CANONICAL.read_text())
    xml = tmp_path / "junit.xml"
    pytester.runpytest_subprocess(*FAST, *(extra or ("-p", "no:xdist")), f"--junitxml={xml}")
    props = _properties(xml)
    assert props["test_multi"] == [("requirement", "REQ-001"), ("requirement", "REQ-006")]
    assert props["test_pass"] == [("requirement", "REQ-001")]
    assert props["test_param[2]"] == [("requirement", "REQ-006")]
    assert props["test_unlinked"] == []


# ---- report --------------------------------------------------------------------------------

@pytest.mark.slow
def test_report_files_in_html_and_markdown(pytester, tmp_path):
    pytester.makepyfile(test_canonical=CANONICAL.read_text())
    html, md = tmp_path / "r" / "matrix.html", tmp_path / "matrix.md"
    for path in (html, md):
        result = pytester.runpytest_inprocess(*FAST, "-p", "no:xdist", "-k", "not timeout",
                                              f"--harness-reqs={ALL_REQS}", f"--harness-report={path}")
        assert f"harness report: {path}" in result.stdout.str()
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script src" not in page and "http" not in page
    assert '<details class="req uncovered" id="req-REQ-010" data-status="uncovered"' in page
    assert "test_canonical.<wbr>py::<wbr>test_fail</span> <em>failed</em>" in page
    text = md.read_text()
    assert "| REQ-007 |  | weak | test_canonical.py::test_no_assert (passed) |" in text
    assert "| REQ-010 |  | uncovered | - | no test is marked with this id |" in text


def test_report_escapes_titles():
    doc = {"requirements": {"A-1": {"status": "verified", "tests": [], "weak": [], "counts": {"passed": 0},
                                    "title": "<b>x</b> | y"}},
           "tests": {}, "gate": {"reasons": []}, "session": {}}
    assert "&lt;b&gt;x&lt;/b&gt;" in report.render_html(doc)
    assert "<b>x</b> \\| y" in report.render_markdown(doc)


def test_report_path_must_be_html_or_md(pytester):
    pytester.makepyfile("def test_a():\n    assert True\n")
    result = pytester.runpytest_inprocess("-p", "no:xdist", "--harness-report=out.pdf")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
