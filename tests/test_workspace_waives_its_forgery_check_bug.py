"""A judged workspace cannot waive its own forgery finding (hostile trial i, 2026-12-07, A7).

The workspace's tests/conftest.py got a hook wrapper that turns a failing test's report into a pass,
and its own pytest.ini the line `harness_trusted_hooks = tests/conftest.py::pytest_runtest_makereport
@sha256:<the conftest's hash>`: the plugin read the waiver from the ini of the very session it
judged, and `pytest --harness-run` said HARNESS RUN PASS for a failing test. The harness's sessions
now pass `--harness-judged`, and the plugin takes its settings from that command line only
(pytest_harness/judged.py); it says what it ignored.

A real `python -m pytest --harness-run` subprocess re-verifies a private copy of the real offline
Todo build; its verification sessions are real sandboxed pytest subprocesses.
"""

from __future__ import annotations

import hashlib
import json

from harness.state.store import RunStore
from run_copies import harness_run

FLIPPER = '''

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and item.name == "test_planted_failure":
        report.outcome = "passed"
'''


def test_workspace_ini_cannot_waive_a_report_flipping_hook_bug(fresh_todo_run, tmp_path):
    store, run_id = fresh_todo_run
    workspace = store.workspace(run_id)
    module = sorted((workspace / "tests").glob("test_*.py"))[0]
    with module.open("a", encoding="utf-8") as out:   # a test the build owns fails for real
        out.write("\n\n@pytest.mark.req('REQ-001')\ndef test_planted_failure():\n    assert 1 + 1 == 3\n")
    conftest = workspace / "tests" / "conftest.py"
    text = conftest.read_text(encoding="utf-8")
    if "import pytest" not in text:
        text = "import pytest\n" + text
    conftest.write_text(text + FLIPPER, encoding="utf-8")
    digest = hashlib.sha256(conftest.read_bytes()).hexdigest()
    ini = workspace / "pytest.ini"
    assert ini.is_file(), sorted(p.name for p in workspace.iterdir())
    with ini.open("a", encoding="utf-8") as out:
        out.write(f"harness_trusted_hooks =\n    tests/conftest.py::pytest_runtest_makereport@sha256:{digest}\n")

    proc = harness_run(run_id, store.base, tmp_path)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "HARNESS RUN FAIL" in out, out[-3000:]
    assert "ignored the workspace's own settings ini harness_trusted_hooks" in out, out[-3000:]
    evidence = json.loads(RunStore(store.base).workspace_evidence(run_id).read_text())
    assert evidence.get("ignored_settings") == ["ini harness_trusted_hooks"]
    assert "forgery_waived" not in evidence
    assert any(f.get("what", "").startswith("defines hook pytest_runtest_makereport") or
               "pytest_runtest_makereport" in json.dumps(f) for f in evidence.get("forgery", [])), evidence.get("forgery")
