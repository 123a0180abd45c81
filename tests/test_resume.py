"""Crash recovery (SPEC M9) against really killed `builder` processes.

Scenario A: `builder new` SIGKILLs itself right after TASK-002's task_completed checkpoint
(HARNESS_CRASH_AT), then `builder resume` finishes the run while a second `builder resume` is
refused. Scenario B walks one run through a budget failure (exit 75) and five crashes at
different points (after plan, inside a checkpoint commit, inside a task, inside the last task,
after the runtime check), resuming after each; every resume must keep the history and never
rebuild or re-verify a completed task.
"""

from __future__ import annotations

import json
import signal

import pytest

from fake_openai_server import FakeOpenAIServer, answer
from harness.state.store import RunStore
from harness.utils.fileio import sha256_file
from resume_helpers import TODO, assert_contiguous, assert_history_kept, builder, snapshot, starts, unswept

KILLED = -signal.SIGKILL
TASKS = ["TASK-001", "TASK-002", "TASK-003", "TASK-004", "TASK-005"]


# --- scenario A ---------------------------------------------------------------------------------

@pytest.fixture
def crash_a(resumed_crashed_run):
    """The shared killed `builder new`, resumed in a private copy by two real `builder resume`s (conftest.py)."""
    return resumed_crashed_run


def test_builder_new_is_really_killed_right_after_task_002(crash_a):
    assert crash_a.new.returncode == KILLED
    st = crash_a.before["state"]
    assert st["status"] == "BUILDING"
    assert st["task_results"] == {"TASK-001": "COMPLETED", "TASK-002": "COMPLETED", "TASK-003": "PENDING",
                                  "TASK-004": "PENDING", "TASK-005": "PENDING"}
    assert crash_a.before["names"][-1] == "008-task_completed-TASK-002.json"
    assert "BUILD COMPLETE" not in crash_a.new_out
    # the dead builder's lock file is left behind (holding its pid): resume must take it over
    assert crash_a.lock_text is not None and crash_a.lock_text.strip() == str(crash_a.new.pid)


def test_resume_finishes_the_run_with_review_and_runtime_pass(crash_a):
    assert crash_a.first.returncode == 0, crash_a.out + crash_a.err
    assert unswept(crash_a.out).startswith(
        "resuming run crashy at BUILDING (last checkpoint 008-task_completed-TASK-002)")
    assert "[1/6] SPEC" not in crash_a.out and "[2/6] PLAN" not in crash_a.out
    for tid in ("TASK-001", "TASK-002"):
        assert f"{tid} COMPLETED" not in crash_a.out
    assert "BUILD COMPLETE  run crashy" in crash_a.out
    st = crash_a.after["state"]
    assert st["status"] == "PASS" and st["error"] == ""
    assert set(st["task_results"].values()) == {"COMPLETED"}
    assert st["review"]["overall_status"] == "PASS" and st["runtime"]["status"] == "PASS"
    reqs = st["review"]["requirements"]
    assert reqs and all(r["runtime"] is True for r in reqs)
    assert crash_a.out.count("Runtime: YES") == len(reqs) and "Runtime: NO" not in crash_a.out
    assert not (crash_a.run / "run.lock").exists()


def test_completed_tasks_are_not_started_again_and_the_rest_once(crash_a):
    events = crash_a.after["events"]
    assert {tid: starts(events, tid) for tid in TASKS} == {tid: 1 for tid in TASKS}
    resumed = [e for e in events if e["stage"] == "run" and e["status"] == "resumed"]
    assert len(resumed) == 1 and resumed[0]["detail"]["checkpoint"] == "008-task_completed-TASK-002"


def test_completed_tasks_are_not_reverified(crash_a):
    before, after = crash_a.before["verification"], crash_a.after["verification"]
    assert after[:len(before)] == before
    assert {r["task_id"] for r in after[len(before):]} == {"TASK-003", "TASK-004", "TASK-005", "WORKSPACE"}
    assert {r["task_id"] for r in before} == {"TASK-001", "TASK-002"}


def test_file_hashes_of_completed_tasks_are_unchanged(crash_a):
    ws = crash_a.run / "workspace"
    before, after = crash_a.before["state"]["file_hashes"], crash_a.after["state"]["file_hashes"]
    cp = {n: crash_a.before["bytes"][n] for n in ("005-task_completed-TASK-001.json", "008-task_completed-TASK-002.json")}
    for tid, name in (("TASK-001", "005-task_completed-TASK-001.json"), ("TASK-002", "008-task_completed-TASK-002.json")):
        recorded = before[tid]
        assert recorded and recorded == after[tid]
        assert json.loads(cp[name])["file_hashes"] == recorded
        assert {rel: sha256_file(ws / rel) for rel in recorded} == recorded


def test_checkpoints_stay_contiguous_and_earlier_ones_byte_identical(crash_a):
    assert_history_kept(crash_a.before, crash_a.after)
    names = crash_a.after["names"]
    assert names[8] == "009-task_started-TASK-003.json" and names[-1].endswith("-review_completed.json")
    assert crash_a.after["state"]["checkpoints"] == names
    assert not crash_a.after["pending"]


def test_a_second_resume_while_one_runs_is_refused(crash_a):
    second = crash_a.second
    assert second.returncode == 3, second.stdout + second.stderr
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in second.stderr and second.stdout == ""
    assert f"run crashy is in use by process {crash_a.first.pid}" in lines[0] and "refused" in lines[0]


# --- scenario B ---------------------------------------------------------------------------------

CHAIN = [  # (label, HARNESS_CRASH_AT for a `builder resume`, expected exit code)
    ("plan", "plan_created", KILLED),
    ("pending", "task_completed:TASK-002:pending", KILLED),
    ("in_task", "task_started:TASK-003", KILLED),
    ("last_task", "verification_completed:TASK-005", KILLED),
    ("runtime", "runtime_completed", KILLED),
    ("final", None, 0),
    ("finished", None, 0),
]


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    """step label -> (process, snapshot after it). Step 'budget' is a real exit-75 `builder new`:
    SPEC spends the two calls (an unusable answer and its one corrective retry, then the rule-based
    spec), so the budget runs out at PLAN's first call, after the spec_created checkpoint. The run is
    started with --no-audit (nothing here is about the audit; test_audit kills and resumes one), which
    every resume of the chain must keep."""
    runs = tmp_path_factory.mktemp("chain") / "runs"
    run = runs / "chain"
    steps = {}
    with FakeOpenAIServer([answer("this is not a spec"), answer("still not json")]) as server:
        proc = builder("new", TODO, "--runs-dir", runs, "--run-id", "chain", "--max-llm-calls", "2", "--no-audit",
                       env={"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": server.url, "OPENAI_MODEL": "m"})
    steps["budget"] = (proc, snapshot(run))
    for label, crash_at, _ in CHAIN:
        proc = builder("resume", "chain", "--runs-dir", runs, env={"HARNESS_CRASH_AT": crash_at} if crash_at else None)
        steps[label] = (proc, snapshot(run))
    steps["_run"] = run
    return steps


def _labels():
    return ["budget"] + [label for label, _, _ in CHAIN]


def test_every_step_ends_as_expected(chain):
    got = {label: chain[label][0].returncode for label in _labels()}
    assert got == {"budget": 75, **{label: rc for label, _, rc in CHAIN}}, {
        k: chain[k][0].stdout[-600:] + chain[k][0].stderr[-600:] for k in _labels()}


def test_a_budget_failure_is_saved_and_resumable(chain):
    proc, snap = chain["budget"]
    st = snap["state"]
    assert st["status"] == "FAIL" and "budget exceeded" in st["error"]
    assert st["spec"] is not None and st["plan"] is None and snap["names"] == ["001-spec_created.json"]
    assert "builder resume chain" in proc.stderr
    out = chain["plan"][0].stdout
    assert unswept(out).startswith("resuming run chain at SPEC_DONE (last checkpoint 001-spec_created)")
    after = chain["plan"][1]["state"]
    assert after["plan"] is not None and after["error"] == "" and after["status"] == "PLAN_DONE"
    assert chain["plan"][1]["names"][-1] == "002-plan_created.json"


def test_a_budget_stop_inside_spec_is_saved_and_resumable_from_the_start(tmp_path):
    """Regression: with one call, the budget runs out at SPEC's corrective retry (before any
    checkpoint); the run is still saved as FAIL and `builder resume` starts it at CREATED."""
    runs = tmp_path / "runs"
    with FakeOpenAIServer([answer("this is not a spec"), answer("still not json")]) as server:
        proc = builder("new", TODO, "--runs-dir", runs, "--run-id", "early", "--max-llm-calls", "1",
                       env={"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": server.url, "OPENAI_MODEL": "m"})
    assert proc.returncode == 75, proc.stdout + proc.stderr
    st = snapshot(runs / "early")["state"]
    assert st["status"] == "FAIL" and "budget exceeded: 1 model calls (max 1)" in st["error"]
    assert st["spec"] is None and st["checkpoints"] == []
    assert "builder resume early" in proc.stderr and "Traceback" not in proc.stderr
    resumed = builder("resume", "early", "--runs-dir", runs, env={"HARNESS_CRASH_AT": "spec_created"})
    assert resumed.returncode == KILLED, resumed.stdout + resumed.stderr
    assert resumed.stdout.startswith("resuming run early at CREATED (last checkpoint none)")
    snap = snapshot(runs / "early")
    assert snap["names"] == ["001-spec_created.json"] and snap["state"]["spec"] is not None
    # the hook fires for the spec stage too (it checkpoints through the store, not a RunContext), and a
    # run killed at spec_created resumes into the plan (this was its own `builder new` killed there)
    assert snap["state"]["status"] == "SPEC_DONE" and snap["state"]["plan"] is None
    proc = builder("resume", "early", "--runs-dir", runs, env={"HARNESS_CRASH_AT": "plan_created"})
    assert proc.returncode == KILLED, proc.stdout + proc.stderr
    assert proc.stdout.startswith("resuming run early at SPEC_DONE (last checkpoint 001-spec_created)")
    after = snapshot(runs / "early")
    assert after["names"] == ["001-spec_created.json", "002-plan_created.json"]
    assert after["bytes"]["001-spec_created.json"] == snap["bytes"]["001-spec_created.json"]
    assert after["state"]["status"] == "PLAN_DONE" and len(after["state"]["task_results"]) == 5


def test_a_run_killed_after_plan_created_continues_with_the_build(chain):
    out = chain["pending"][0].stdout
    assert unswept(out).startswith("resuming run chain at PLAN_DONE (last checkpoint 002-plan_created)")
    assert "[2/6] PLAN" not in out and "TASK-001 COMPLETED" in out


def test_a_kill_inside_a_checkpoint_commit_is_completed_by_resume(chain):
    snap = chain["pending"][1]
    name = "008-task_completed-TASK-002.json"
    # state.json (the commit point) lists the checkpoint; the file still waits as .<name>.pending
    assert snap["state"]["checkpoints"][-1] == name and name not in snap["names"]
    assert snap["state"]["task_results"]["TASK-002"] == "COMPLETED"
    pending = snap["pending"][f".{name}.pending"]
    nxt = chain["in_task"]
    assert unswept(nxt[0].stdout).startswith(
        "resuming run chain at BUILDING (last checkpoint 008-task_completed-TASK-002)")
    assert nxt[1]["bytes"][name] == pending and not nxt[1]["pending"]
    assert starts(nxt[1]["events"], "TASK-002") == 1


def test_a_task_killed_mid_build_is_reset_to_pending_and_rebuilt_alone(chain):
    snap = chain["in_task"][1]
    assert snap["state"]["task_results"]["TASK-003"] == "RUNNING"
    assert snap["names"][-1] == "009-task_started-TASK-003.json"
    proc, after = chain["last_task"]
    assert "TASK-003 interrupted, back to PENDING" in unswept(proc.stdout).splitlines()[0], proc.stdout[:600]
    resumed_at = max(i for i, e in enumerate(after["events"]) if e["status"] == "resumed")
    rebuilt = [e["task_id"] for e in after["events"][resumed_at:] if e["stage"] == "build" and e["status"] == "started"]
    assert rebuilt == ["TASK-003", "TASK-004", "TASK-005"]
    assert after["names"][9] == "010-task_started-TASK-003.json"  # the interrupted start stays in history


def test_a_crash_inside_the_last_task_still_reaches_runtime_and_review(chain):
    snap = chain["last_task"][1]
    assert snap["state"]["task_results"]["TASK-005"] == "RUNNING" and snap["state"]["runtime"] is None
    assert snap["names"][-1].endswith("-verification_completed-TASK-005.json")
    proc, after = chain["runtime"]
    assert "TASK-005 interrupted" in proc.stdout and "[4/6] VERIFY" in proc.stdout
    st = after["state"]
    assert st["runtime"]["status"] == "PASS" and st["status"] == "REVIEW_DONE" and st["review"] is None
    assert after["names"][-1].endswith("-runtime_completed.json")


def test_resume_after_the_runtime_check_goes_straight_to_review(chain):
    proc, after = chain["final"]
    before = chain["runtime"][1]
    assert unswept(proc.stdout).startswith("resuming run chain at REVIEW_DONE"), proc.stdout[:600]
    assert "[4/6] VERIFY" not in proc.stdout and "[6/6] REVIEW" in proc.stdout
    assert "BUILD COMPLETE  run chain" in proc.stdout and "Runtime: YES" in proc.stdout
    # bug: resume of a `new --no-audit` run audited it (the flag was not stored in state)
    assert "mutation audit skipped (the run was started with --no-audit)" in proc.stdout
    assert RunStore(chain["_run"].parent).read_audit("chain") is None
    assert after["verification"] == before["verification"]  # nothing re-verified
    assert sum(n.endswith("-runtime_completed.json") for n in after["names"]) == 1
    assert after["names"][-1].endswith("-review_completed.json")
    st = after["state"]
    assert st["status"] == "PASS" and st["review"]["overall_status"] == "PASS"
    # TASK-003 died inside its task_started checkpoint, before its "started" event was logged
    assert {t: starts(after["events"], t) for t in TASKS} == {
        "TASK-001": 1, "TASK-002": 1, "TASK-003": 1, "TASK-004": 1, "TASK-005": 2}
    assert {t: sum(n.endswith(f"-task_started-{t}.json") for n in after["names"]) for t in TASKS} == {
        "TASK-001": 1, "TASK-002": 1, "TASK-003": 2, "TASK-004": 1, "TASK-005": 2}


def test_history_is_never_rewritten_across_the_chain(chain):
    labels = _labels()
    for prev, cur in zip(labels, labels[1:]):
        assert_history_kept(chain[prev][1], chain[cur][1])
    final = chain["final"][1]
    assert_contiguous(final["names"])
    assert final["state"]["checkpoints"] == final["names"]


def test_completed_tasks_are_never_reverified_or_rehashed_in_the_chain(chain):
    labels = _labels()
    first_hashes: dict[str, dict] = {}
    for prev, cur in zip(labels, labels[1:]):
        before, after = chain[prev][1], chain[cur][1]
        done = {t for t, s in before["state"]["task_results"].items() if s == "COMPLETED"}
        new = after["verification"][len(before["verification"]):]
        assert not done & {r["task_id"] for r in new}, (cur, done)
        for tid, hashes in after["state"]["file_hashes"].items():
            first_hashes.setdefault(tid, hashes)
            assert hashes == first_hashes[tid], (cur, tid)
    assert sorted(first_hashes) == TASKS
    ws = chain["_run"] / "workspace"
    for tid, hashes in first_hashes.items():
        assert hashes and {rel: sha256_file(ws / rel) for rel in hashes} == hashes, tid


def test_a_finished_run_has_nothing_to_resume_and_is_left_untouched(chain):
    proc, after = chain["finished"]
    assert "run chain already finished with PASS; nothing to resume" in proc.stdout
    assert "BUILD COMPLETE" in proc.stdout
    assert after["tree"] == chain["final"][1]["tree"]
