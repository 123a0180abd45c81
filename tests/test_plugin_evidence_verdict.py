"""The summary's evidence line says what decided the exit status.

Bug (found gating a foreign project, pallets/itsdangerous, with --harness-fail-under=80): 4 of 5
requirements verified, the threshold met, pytest exited 0 — and the line read
"harness evidence: ev/evidence.json (gate failed)". Now it says the threshold was met and names
what kept the stricter gate (every requirement verified) from passing."""

from __future__ import annotations

import subprocess
import sys

from pytest_harness.outputs import evidence_verdict


def _doc(passed: bool, reasons: list[str], fail_under: dict | None = None) -> dict:
    doc = {"gate": {"passed": passed, "reasons": reasons}, "requirements": {}}
    if fail_under is not None:
        doc["fail_under"] = fail_under
    return doc


def test_evidence_line_said_gate_failed_beside_a_run_that_passed_its_threshold_bug():
    met = _doc(False, ["SER-9: uncovered"], {"threshold": 80.0, "met": True})
    assert evidence_verdict(met) == ("threshold met, so the run passes; not every requirement passed "
                                     "the gate: SER-9: uncovered")


def test_evidence_line_without_threshold_and_when_it_fails():
    assert evidence_verdict(_doc(True, [])) == "gate passed"
    missed = _doc(False, [f"R-{n}: uncovered" for n in range(5)], {"threshold": 100.0, "met": False})
    assert evidence_verdict(missed) == "gate failed: R-0: uncovered; R-1: uncovered; R-2: uncovered; 2 more"
    assert evidence_verdict(_doc(False, ["R-1: weak"])).endswith(
        "without --harness-fail-under the exit status is the tests' own")


def test_a_real_session_that_meets_its_threshold_says_so(tmp_path):
    (tmp_path / "requirements.toml").write_text('[requirements]\nA-1 = "one"\nA-2 = "two"\n', encoding="utf-8")
    (tmp_path / "test_a.py").write_text(
        "import pytest\n\n\n@pytest.mark.req('A-1')\ndef test_one():\n    assert sum([1, 2]) == 3\n",
        encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "--harness-requirements-file=requirements.toml", "--harness-fail-under=50",
                           "--harness-evidence=ev.json"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(threshold met, so the run passes; not every requirement passed the gate: A-2: uncovered)" in done.stdout
