"""The harness chooses which tests a verification runs: a workspace's pytest `addopts` is not applied.

Hostile trial 2026-12-07: A16 put `addopts = --deselect <the two tests that see the bug>` in the
workspace's pytest.ini and A17 `addopts = -p tidy` (a report-flipping plugin kept in node_modules/,
which the evidence snapshot does not hash): `pytest --harness-run` said PASS on an app whose logout
did nothing. Every pytest command the harness runs in a workspace gets `-o addopts=`.
"""

from __future__ import annotations

import json

from harness.verification.verifier import command_argv, run_command

TESTS = '''
import pytest

@pytest.mark.req("REQ-001")
def test_sees_the_bug():
    assert 1 + 1 == 3

@pytest.mark.req("REQ-001")
def test_passes():
    assert 1 + 1 == 2
'''


def _workspace(tmp_path, addopts: str):
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "tests" / "test_a.py").write_text(TESTS)
    (ws / "pytest.ini").write_text("[pytest]\nmarkers =\n    req(id): requirement\ntestpaths = tests\n"
                                   f"addopts = {addopts}\n")
    return ws


def test_addopts_deselecting_a_failing_test_does_not_pass_verification_bug(tmp_path):
    ws = _workspace(tmp_path, "--deselect tests/test_a.py::test_sees_the_bug")
    ev = tmp_path / "out" / "evidence.json"
    result = run_command("pytest -q", ws, task_id="TASK-001", evidence_path=ev, reqs=["REQ-001"], run_id="r1",
                         timeout_s=120)
    assert result.status == "FAIL", result.stdout
    tests = json.loads(ev.read_text())["tests"] if ev.is_file() else {}
    assert tests.get("tests/test_a.py::test_sees_the_bug", {}).get("outcome") in (None, "failed")


def test_addopts_loading_a_plugin_is_not_applied_bug(tmp_path):
    """A plugin named only in addopts (here one that does not even exist) is never loaded."""
    ws = _workspace(tmp_path, "-p plugin_from_an_unhashed_folder")
    result = run_command("pytest -q", ws, task_id="TASK-001", run_id="r1", timeout_s=120)
    assert "plugin_from_an_unhashed_folder" not in result.stdout + result.stderr
    assert result.status == "FAIL" and "1 failed, 1 passed" in result.stdout


def test_every_workspace_pytest_command_overrides_addopts(tmp_path):
    argv = command_argv("python -m pytest -q tests", None, [], tmp_path)
    assert argv[argv.index("-o") + 1] == "addopts="
    assert "-o" not in command_argv("python -m pytest -q", None, [], None)   # no workspace: untouched
