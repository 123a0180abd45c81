"""The choices `builder new` was given are kept in state.json, so `builder resume` continues with them
(bug: a resume of a `--no-audit` run audited it, and of a `--no-repair` run repaired)."""

from __future__ import annotations

import json

from harness.models.run import RunOptions
from harness.state.store import RunStore


def test_resume_of_a_no_audit_run_keeps_no_audit_stored_in_state(tmp_path):
    store = RunStore(tmp_path / "runs")
    store.create_run("Build a todo app with tasks", run_id="r1", options=RunOptions(repair=False, audit=False))
    saved = json.loads(store.state_path("r1").read_text())
    assert saved["options"] == {"repair": False, "audit": False, "budget": {}}
    loaded = store.load("r1")
    assert (loaded.options.repair, loaded.options.audit) == (False, False)


def test_a_run_created_without_options_repairs_and_audits(tmp_path):
    store = RunStore(tmp_path / "runs")
    store.create_run("Build a todo app with tasks", run_id="r2")
    assert store.load("r2").options == RunOptions(repair=True, audit=True)


def test_a_state_json_written_before_options_existed_loads_with_the_defaults(tmp_path):
    store = RunStore(tmp_path / "runs")
    store.create_run("Build a todo app with tasks", run_id="old")
    path = store.state_path("old")
    data = json.loads(path.read_text())
    del data["options"]
    path.write_text(json.dumps(data))
    assert store.load("old").options == RunOptions()
