"""#47: a requirement PASSes only with both legs — its own tests (white-box, inside the app's
process) and the harness's black-box acceptance checks (outside, over HTTP). Hollow tests, a
report-flipping conftest under a computed name or from base64 cannot buy the outside leg."""

from __future__ import annotations

import json

import pytest
from hollow_app import break_complete, flipping_conftest, hollow_tests
from run_copies import harness_run_in_process


def _review(store, run_id) -> dict:
    return {r["id"]: r for r in store.read_artifact(run_id, "review")["requirements"]}


@pytest.mark.slow
def test_hollowed_todo_tests_and_a_broken_complete_fail_harness_run(fresh_todo_run, capsys, tmp_path):
    store, run_id = fresh_todo_run
    ws = store.workspace(run_id)
    assert hollow_tests(ws)
    break_complete(ws)
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "HARNESS RUN FAIL" in proc.stdout
    review = _review(store, run_id)
    req = review["REQ-003"]
    assert req["status"] == "FAIL"
    assert req["tested"] is True                      # the hollow tests passed (the audit is judged apart)
    assert req["black_box"].startswith("Black-box: NO")
    assert any("acceptance check failed: complete a todo and read it back" in m for m in req["missing"]), req["missing"]
    report = json.loads((store.run_dir(run_id) / "requirements" / "REQ-003.json").read_text())
    failed = [c for c in report["black_box"]["checks"] if not c["ok"]]
    assert [c["name"] for c in failed] == ["complete a todo and read it back"]
    assert "reads status 'open'" in failed[0]["detail"]
    # #47: the white-box leg's audit fails hollow tests too now (a crash out of the app is not a kill;
    # before, REQ-002 kept both legs and PASSed): the others FAIL on it alone, their outside leg holds
    other = review["REQ-002"]
    assert other["status"] == "FAIL" and other["black_box"].startswith("Black-box: YES"), other
    assert any("tests do not detect a broken implementation" in m for m in other["missing"]), other["missing"]


@pytest.mark.slow
@pytest.mark.parametrize("how", ["computed", "base64"])
def test_report_flipping_conftest_does_not_make_a_broken_app_pass(fresh_todo_run, capsys, tmp_path, how):
    store, run_id = fresh_todo_run
    ws = store.workspace(run_id)
    break_complete(ws)
    flipping_conftest(ws, how)
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 1, proc.stdout[-3000:]
    req = _review(store, run_id)["REQ-003"]
    assert req["status"] == "FAIL"
    assert any("acceptance check failed: complete a todo and read it back" in m for m in req["missing"]), req["missing"]


@pytest.mark.slow
def test_a_logout_that_ends_nothing_behind_hollowed_tests_fails_harness_run_bug(seed_run, capsys, tmp_path):
    """Hostile trial A1/A9 on a finished offline build with accounts: logout ends no session and the
    tests that saw it accept a 200 after logout. Before, `pytest --harness-run` said PASS (no
    black-box check logged out); now the auth requirement FAILs on `log out ends the session`."""
    import shutil

    from harness.state.store import RunStore
    from trial_breaks import hollow_logout_asserts, logout_ends_nothing

    store, ctx = seed_run
    shutil.copytree(store.run_dir(ctx.run_id), tmp_path / "runs" / ctx.run_id)
    store, run_id = RunStore(tmp_path / "runs"), ctx.run_id
    ws = store.workspace(run_id)
    logout_ends_nothing(ws)
    assert hollow_logout_asserts(ws)
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "HARNESS RUN FAIL" in proc.stdout
    rid = next(r.id for r in ctx.state.spec.requirements if r.capability == "auth")
    auth = _review(store, run_id)[rid]
    assert auth["status"] == "FAIL" and auth["black_box"].startswith("Black-box: NO"), auth
    assert any("acceptance check failed: log out ends the session" in m for m in auth["missing"]), auth["missing"]
