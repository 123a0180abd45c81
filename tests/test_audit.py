"""#15 (e) mutation evidence: `builder audit` and the build's audit stage on real Todo runs.

The audit mutates a scratch copy, never the workspace: every test compares file hashes before and
after, and one kills a real builder with SIGKILL while the mutants are in place, then resumes.
"""

import json
import shutil
import subprocess

import pytest

from resume_helpers import builder_argv, clean_env
from judged_copies import plant_blind_tests
from run_copies import cli, harness_run_in_process, row, workspace_hashes


def _audit(store, run_id):
    return json.loads(store.artifact_path(run_id, "audit").read_text())


@pytest.mark.slow
def test_the_build_audits_every_requirement_before_review(todo_run):
    store, ctx = todo_run
    audit = _audit(store, ctx.run_id)
    evidence = store.read_workspace_evidence(ctx.run_id)
    assert audit["evidence_digest"] == evidence["snapshot"]["digest"]
    assert all(r["killed"] >= 1 for r in audit["requirements"].values()), audit["requirements"]
    names = ctx.state.checkpoints
    assert any("-audit_completed" in n for n in names)
    assert names.index(next(n for n in names if "-audit_completed" in n)) < names.index(
        next(n for n in names if "-review_completed" in n))
    assert not store.audit_scratch(ctx.run_id).exists()


@pytest.mark.slow
def test_builder_audit_kills_a_mutant_of_every_requirement_and_changes_no_file(audited_todo_copy):
    """`builder audit --max-mutants 3` of a copy without audit.json (conftest: audited_todo_copy)."""
    store, run_id, done = audited_todo_copy.store, audited_todo_copy.run_id, audited_todo_copy.audit
    assert done.code == 0, done.out + done.err
    assert "AUDIT PASS" in done.out
    assert workspace_hashes(store.workspace(run_id)) == audited_todo_copy.before
    assert not store.audit_scratch(run_id).exists()
    audit = _audit(store, run_id)
    for rid, entry in audit["requirements"].items():
        assert entry["killed"] >= 1 and entry["mutants"] <= 3, (rid, entry)
        report = json.loads(store.requirement_report(run_id, rid).read_text())
        assert report["mutation"]["killed"] == entry["killed"]
        assert row(store.read_matrix(run_id), rid).mutation == {"killed": entry["killed"], "total": entry["mutants"]}
    events = [json.loads(line) for line in store.events_path(run_id).read_text().splitlines()]
    assert {"started", "killed", "completed"} <= {e["status"] for e in events if e["stage"] == "audit"}


@pytest.mark.slow
def test_tests_that_cannot_detect_a_broken_implementation_are_not_pass(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    assert plant_blind_tests(store.workspace(run_id), "REQ-003")
    # --harness-run re-runs the audit on its fresh evidence (#46): the blind tests pass, their
    # mutants survive, and the re-verification itself fails REQ-003 (it answered from the stored
    # audit before, and said PASS)
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert "REQ-003: FAIL — tests do not detect a broken implementation: 0/" in proc.stdout, proc.stdout[-3000:]
    code, out, _ = cli(capsys, "audit", run_id, "--runs-dir", str(store.base))
    assert code == 1
    assert "REQ-003: tests do not detect a broken implementation: 0/" in out and "AUDIT FAIL" in out
    code, out, _ = cli(capsys, "trace", run_id, "--runs-dir", str(store.base), "--fail-under", "100")
    assert code == 1
    assert row(store.read_matrix(run_id), "REQ-003").status == "FAIL"
    assert "tests do not detect a broken implementation: 0/" in out
    review = json.loads(store.artifact_path(run_id, "review").read_text())
    assert review["overall_status"] == "FAIL"


@pytest.mark.slow
def test_builder_audit_errors(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    code, _, err = cli(capsys, "audit", "no_such_run", "--runs-dir", str(store.base))
    assert code == 4 and "no run 'no_such_run'" in err
    code, _, err = cli(capsys, "audit", run_id, "--runs-dir", str(store.base), "--max-mutants", "0")
    assert code == 2 and "--max-mutants" in err
    checkpoint = sorted(store.checkpoints_dir(run_id).glob("0*.json"))[2]
    checkpoint.unlink()
    audit_before = store.artifact_path(run_id, "audit").read_bytes()
    code, _, err = cli(capsys, "audit", run_id, "--runs-dir", str(store.base))
    assert code == 3 and "checkpoint" in err and "\n" not in err.strip()
    assert store.artifact_path(run_id, "audit").read_bytes() == audit_before


@pytest.mark.slow
def test_sigkill_during_the_audit_then_resume_leaves_the_workspace_unchanged(tmp_path, crashed_todo_run, capsys):
    """The builder killed inside the audit is a real `builder resume` of a private copy of the shared
    crashed run (conftest.py: `builder new` SIGKILLed after TASK-002), which builds the other tasks,
    verifies and starts the audit; a second `builder resume` (in-process) finishes the run."""
    runs = tmp_path / "runs"
    shutil.copytree(crashed_todo_run.run, runs / "crashy")
    proc = subprocess.run(builder_argv("resume", "crashy", "--runs-dir", runs), capture_output=True,
                          text=True, timeout=600, env=clean_env({"HARNESS_CRASH_AT": "audit:running"}))
    assert proc.returncode == -9, proc.stdout[-2000:] + proc.stderr[-2000:]
    run = runs / "crashy"
    verified = json.loads((run / "evidence" / "workspace.json").read_text())["snapshot"]["files"]
    assert workspace_hashes(run / "workspace") == verified
    scratch = run / "audit-workspace"
    mutated = [f for lane in scratch.iterdir() for f, h in workspace_hashes(lane).items()
               if f in verified and verified[f] != h]  # one copy per lane (harness/audit/scratch.py)
    assert mutated and all(f.startswith("src/") for f in mutated)  # the mutants were in place when it died
    code, out, err = cli(capsys, "resume", "crashy", "--runs-dir", str(runs))  # in-process: the killed one was real
    assert code == 0, out[-3000:] + err[-2000:]
    assert "audit REQ-001" in out and "BUILD COMPLETE" in out
    assert workspace_hashes(run / "workspace") == verified
    assert not scratch.exists()
    audit = json.loads((run / "audit.json").read_text())
    assert all(r["killed"] >= 1 for r in audit["requirements"].values())
