"""Verifier: real commands in the workspace, through the plugin, failures as data (SPEC M5)."""

import json

from harness.models import Task
from harness.models.enums import FailureType
from harness.verification.verifier import command_argv, verify_task, verify_workspace

PASSING = '''import pytest


@pytest.mark.req("REQ-001")
def test_ok():
    assert sum([1, 1]) == 2
'''


def workspace(tmp_path, test_body=PASSING):
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "pytest.ini").write_text("[pytest]\nmarkers =\n    req(id): requirement\n")
    (ws / "tests" / "test_a.py").write_text(test_body)
    return ws


def task(*commands):
    return Task(id="TASK-001", description="t", files_touched=["tests/test_a.py"], requirements=["REQ-001"],
                verification=list(commands))


def test_passing_command_writes_evidence_and_leaves_workspace_clean(tmp_path):
    ws = workspace(tmp_path)
    [result] = verify_task(task("python -m pytest -q tests/test_a.py"), ws, evidence_dir=tmp_path / "evidence",
                           reqs=["REQ-001"])
    assert result.status == "PASS" and result.exit_code == 0 and result.failure_type is None
    doc = json.loads((tmp_path / result.evidence_path).read_text())
    assert doc["requirements"]["REQ-001"]["status"] == "verified" and doc["gate"]["passed"]
    assert not list(ws.rglob("__pycache__")) and not (ws / ".pytest_cache").exists()
    assert str(tmp_path) not in result.stdout
    assert result.evidence_digest == "sha256:" + __import__("hashlib").sha256(
        (tmp_path / result.evidence_path).read_bytes()).hexdigest()


def test_evidence_rewritten_after_the_session_is_rejected(tmp_path):
    """#15: an atexit handler that rewrites the evidence after the plugin sent its digest."""
    forger = PASSING.replace("def test_ok():\n    assert sum([1, 1]) == 2",
                             "def test_ok():\n    assert sum([1, 1]) == 3") + (
        "\n_m = __import__('ate' + 'xit')\nimport sys\n\n\ndef _rewrite():\n"
        "    p = next(a for a in sys.argv if a.startswith('--harness-evidence=')).split('=', 1)[1]\n"
        "    open(p, 'a').write(' ')\n    import os\n    os._exit(0)\n\n\n"
        "getattr(_m, 'reg' + 'ister')(_rewrite)\n")
    ws = workspace(tmp_path, forger)
    [result] = verify_task(task("python -m pytest -q tests/test_a.py"), ws, evidence_dir=tmp_path / "evidence",
                           reqs=["REQ-001"])
    assert result.exit_code == 0  # the forger turned a failing session into exit 0 ...
    assert result.status == "FAIL"  # ... and the digest caught the rewrite
    assert "changed after the pytest session ended" in result.diagnostics["summary"]


def test_failing_test_is_test_failure_with_location(tmp_path):
    ws = workspace(tmp_path, PASSING.replace("sum([1, 1]) == 2", "sum([1, 1]) == 3"))
    [result] = verify_task(task("pytest -q"), ws)
    assert result.status == "FAIL" and result.exit_code == 1
    assert result.failure_type == FailureType.TEST_FAILURE
    assert result.diagnostics["file"] == "tests/test_a.py"


def test_missing_tool_is_a_failed_result_not_a_crash(tmp_path):
    [result] = verify_task(task("nosuchtool --x"), workspace(tmp_path))
    assert result.status == "FAIL" and result.exit_code == 127
    assert result.failure_type in (FailureType.CONFIG_ERROR, FailureType.ENVIRONMENT_ERROR)


def test_default_command_is_pytest_and_no_tests_is_never_green(tmp_path):
    ws = workspace(tmp_path, "")
    result = verify_workspace(ws)
    assert result.command == "pytest -q" and result.exit_code == 5 and result.status == "FAIL"


def test_timeout_marks_the_result_timed_out(tmp_path):
    ws = workspace(tmp_path)
    [result] = verify_task(task("python -c 'import time; time.sleep(30)'"), ws, timeout_s=0.5)
    assert result.timed_out and result.failure_type == FailureType.TIMEOUT and result.status == "FAIL"


def test_pytest_commands_get_plugin_flags_and_our_interpreter(tmp_path):
    import sys

    argv = command_argv("pytest -q tests", tmp_path / "e.json", ["REQ-001"], tmp_path)
    assert argv[:3] == [sys.executable, "-m", "pytest"]
    assert f"--harness-evidence={tmp_path / 'e.json'}" in argv and "enable_assertion_pass_hook=true" not in argv
    assert "--harness-reqs=REQ-001" in argv
    assert "-p" in argv and "no:hypothesispytest" in argv
    assert command_argv("echo hi", None, []) == ["echo", "hi"]
