"""#15 (e) audit results are trusted like evidence, and a killed `builder audit` leaves nothing behind.

The mutation runner writes its result inside the scratch copy, where the code under test runs: it
also sends the file's sha256 over an inherited pipe, so workspace code that rewrites the result
after the session is rejected. A `builder audit` SIGKILLed with the mutants in place leaves a stale
scratch copy; the next `builder resume` (even of a finished run) or `builder audit` removes it and
the run's workspace stays byte-identical.

The honest audit is conftest's audited_todo_copy (shared with tests/test_audit.py); the SIGKILLed
`builder audit` is done once per module (`killed_audit`) and each test goes on in a copy of it.
"""

import json
import shutil
import subprocess
from types import SimpleNamespace

import pytest

import judged_copies
from harness.state.store import RunStore
from resume_helpers import builder, builder_argv, clean_env, tree_digest
from run_copies import cli, workspace_hashes

# Runs after the pytest session (and after the runner sent its digest): every mutant "killed".
FORGING_CONFTEST = '''
import atexit
import json
import sys
from pathlib import Path

# the result is written to the command's outbox (the lane is read-only), named on the command line
RESULT = next(Path(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--harness-mutants-result="))


def _forge():
    if RESULT.is_file():
        doc = json.loads(RESULT.read_text())
        doc["results"] = {key: "failed" for key in doc["results"]}
        RESULT.write_text(json.dumps(doc))


atexit.register(_forge)
'''


@pytest.mark.slow
def test_workspace_code_rewriting_the_audit_result_is_rejected(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    workspace = store.workspace(run_id)
    (workspace / "conftest.py").write_text(FORGING_CONFTEST)
    audit_before = store.artifact_path(run_id, "audit").read_bytes()
    before = workspace_hashes(workspace)
    # one mutant a requirement: the forger rewrites whatever the session wrote, however many
    code, out, err = cli(capsys, "audit", run_id, "--runs-dir", str(store.base), "--max-mutants", "1")
    assert code == 3, out + err
    assert "mutation audit result rejected: result.json changed after the pytest session ended" in err
    assert store.artifact_path(run_id, "audit").read_bytes() == audit_before  # nothing recorded
    assert workspace_hashes(workspace) == before
    assert not store.audit_scratch(run_id).exists()


@pytest.mark.slow
def test_an_honest_audit_result_is_accepted_with_its_digest(audited_todo_copy):
    done = audited_todo_copy.audit   # `builder audit --max-mutants 3` (conftest: audited_todo_copy)
    assert done.code == 0, done.out + done.err
    audit = done.artifacts["audit"]
    assert "--harness-mutants-digest-fd=<fd>" in audit["command"]
    assert all(r["killed"] >= 1 for r in audit["requirements"].values()), audit["requirements"]


@pytest.fixture(scope="module")
def killed_audit(todo_run, tmp_path_factory):
    """`builder audit` as a real subprocess of a private copy of the Todo run, SIGKILLed by the crash
    hook with the mutants in place: .proc, .runs (its runs dir), .run_id, .before (tree digest of
    the workspace before). Tests go on in copies of it (`_copy`)."""
    base = tmp_path_factory.mktemp("killed_audit")
    store, run_id = judged_copies.private_copy(todo_run, base)
    before = tree_digest(store.workspace(run_id))
    proc = subprocess.run(builder_argv("audit", run_id, "--runs-dir", store.base), capture_output=True, text=True,
                          timeout=600, env=clean_env({"HARNESS_CRASH_AT": "audit:running"}))
    return SimpleNamespace(proc=proc, runs=store.base, run_id=run_id, before=before)


def _copy(killed_audit, tmp_path):
    """A private copy of the killed audit's run: (store, run_id, its stale scratch copy)."""
    assert killed_audit.proc.returncode == -9, killed_audit.proc.stdout[-2000:] + killed_audit.proc.stderr[-2000:]
    store = RunStore(tmp_path / "runs")
    shutil.copytree(killed_audit.runs / killed_audit.run_id, store.run_dir(killed_audit.run_id))
    run_id = killed_audit.run_id
    scratch = store.audit_scratch(run_id)
    verified = workspace_hashes(store.workspace(run_id))
    mutated = [f for lane in scratch.iterdir() for f, h in workspace_hashes(lane).items()
               if f in verified and verified[f] != h]  # one copy per lane (harness/audit/scratch.py)
    assert mutated and all(f.startswith("src/") for f in mutated)  # it died with the mutants in place
    assert tree_digest(store.workspace(run_id)) == killed_audit.before
    return store, run_id, scratch


@pytest.mark.slow
def test_sigkill_during_builder_audit_then_resume_removes_the_stale_copy(killed_audit, tmp_path):
    store, run_id, scratch = _copy(killed_audit, tmp_path)
    resumed = builder("resume", run_id, "--runs-dir", store.base, timeout=600)
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-2000:]
    assert "removed the audit workspace an interrupted audit left behind" in resumed.stdout
    assert not scratch.exists()
    assert tree_digest(store.workspace(run_id)) == killed_audit.before


@pytest.mark.slow
def test_sigkill_during_builder_audit_then_audit_again_succeeds(killed_audit, tmp_path, capsys):
    store, run_id, scratch = _copy(killed_audit, tmp_path)
    code, out, err = cli(capsys, "audit", run_id, "--runs-dir", str(store.base), "--max-mutants", "2")  # in-process
    assert code == 0, out[-3000:] + err[-2000:]
    assert "AUDIT PASS" in out
    assert not scratch.exists()
    assert tree_digest(store.workspace(run_id)) == killed_audit.before
