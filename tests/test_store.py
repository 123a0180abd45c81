"""RunStore: atomic state, checkpoints, events, corruption, locks, bad requests."""

import json

import pytest

from harness.errors import InputError, RunDataError, RunLockedError, UnknownRunError
from harness.state.store import RunStore
from harness.utils.events import EVENT_KEYS, read_events


def test_create_save_load_round_trip(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("a todo app")
    assert state.run_id.startswith("run_") and len(state.run_id) == 12
    state.error = "x"
    store.save(state)
    assert store.load(state.run_id).error == "x"
    assert (runs_dir / state.run_id / "workspace").is_dir()


@pytest.mark.parametrize("request_text", ["", "   \n", "x" * 20_001, "todo\x00app", "bell\x07"])
def test_bad_requests_raise_input_error_and_leave_no_run(runs_dir, request_text):
    store = RunStore(runs_dir)
    with pytest.raises(InputError):
        store.create_run(request_text)
    assert not runs_dir.exists() or not any(runs_dir.iterdir())


def test_checkpoints_are_sequential_and_never_overwritten(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    store.checkpoint(state, "spec_created")
    store.checkpoint(state, "plan_created")
    store.checkpoint(state, "task_started", task_id="TASK-001")
    assert state.checkpoints == ["001-spec_created.json", "002-plan_created.json", "003-task_started-TASK-001.json"]
    log = store.checkpoints(state.run_id)
    latest = log.read(log.names()[-1])
    assert latest["event"] == "task_started" and latest["seq"] == 3 and latest["task_id"] == "TASK-001"
    log.pending_path("003-task_started-TASK-001.json").write_text("{}")
    before = (log.directory / "003-task_started-TASK-001.json").read_bytes()
    with pytest.raises(FileExistsError):  # an existing checkpoint is never overwritten
        log.commit(log.directory / "003-task_started-TASK-001.json")
    assert (log.directory / "003-task_started-TASK-001.json").read_bytes() == before


def test_corrupt_state_json_is_reported_not_overwritten(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    path = runs_dir / state.run_id / "state.json"
    path.write_text('{"run_id": "trunc')
    with pytest.raises(RunDataError, match="state.json"):
        store.load(state.run_id)
    assert path.read_text() == '{"run_id": "trunc'


def test_checkpoint_gap_and_corruption_are_errors(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    store.checkpoint(state, "spec_created")
    store.checkpoint(state, "plan_created")
    cp = runs_dir / state.run_id / "checkpoints"
    (cp / "002-plan_created.json").write_text("{not json")
    with pytest.raises(RunDataError, match="corrupt checkpoint"):
        store.resume(state.run_id)
    (cp / "002-plan_created.json").rename(cp / "003-plan_created.json")
    with pytest.raises(RunDataError, match="gap"):
        store.resume(state.run_id)


def test_state_contradicting_checkpoints_is_an_error(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    store.checkpoint(state, "spec_created")
    state.checkpoints = []
    store.save(state)
    with pytest.raises(RunDataError, match="contradicts"):
        store.resume(state.run_id)


def test_unknown_run_and_invalid_id(runs_dir):
    store = RunStore(runs_dir)
    with pytest.raises(UnknownRunError):
        store.load("run_nothere")
    with pytest.raises(InputError):
        store.load("../etc")


def test_lock_refuses_a_second_writer(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    with store.lock(state.run_id):
        with pytest.raises(RunLockedError):
            with store.lock(state.run_id):
                pass
    with store.lock(state.run_id):  # released again
        pass


def test_stale_lock_of_dead_process_is_taken_over(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    (runs_dir / state.run_id / "run.lock").write_text("99999999")
    with store.lock(state.run_id):
        pass


def test_events_have_all_keys_and_append(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    log = store.events(state)
    log.emit("spec", "started")
    log.emit("spec", "completed", duration_ms=3, extra="x")
    events = read_events(runs_dir / state.run_id / "events.log")
    assert len(events) == 2
    for e in events:
        assert all(k in e for k in EVENT_KEYS)
    assert events[1]["detail"] == {"extra": "x"}


def test_list_runs_reports_corrupt_runs(runs_dir):
    store = RunStore(runs_dir)
    good = store.create_run("todo")
    bad = store.create_run("other")
    (runs_dir / bad.run_id / "state.json").write_text("[]")
    statuses = {r["run_id"]: r["status"] for r in store.list_runs()}
    assert statuses == {good.run_id: "CREATED", bad.run_id: "CORRUPT"}


def test_state_json_is_valid_json_with_schema_version(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    data = json.loads((runs_dir / state.run_id / "state.json").read_text())
    assert data["schema_version"] == 1 and data["user_request"] == "todo"


def test_state_json_is_the_text_the_python_encoder_wrote_and_reads_back(runs_dir):
    """state.json is written by pydantic's encoder: the text json.dumps(indent=2) gave (non-ASCII,
    escapes, nesting); a float below 1e-4 is spelled 0.000015, not 1.5e-05: the same JSON value."""
    from pydantic import BaseModel

    from harness.utils.fileio import atomic_write_json, dump_json

    store = RunStore(runs_dir)
    state = store.create_run("Quản lý công việc — tasks ✓ \"quoted\" \\ back\tslash")
    state.error = "línea\nsegunda \u2028 sep"
    store.save(state)
    path = runs_dir / state.run_id / "state.json"
    assert path.read_text(encoding="utf-8") == dump_json(state.model_dump(mode="json"))
    assert store.load(state.run_id) == state

    class Doc(BaseModel):
        ratio: float = 1.5e-05
        big: float = 12345678.125
        whole: float = 3.0
        none: None = None
        items: list[dict] = [{"a": [], "b": {}, "c": [1, {"d": True}]}]

    atomic_write_json(runs_dir / "doc.json", Doc())
    text, old = (runs_dir / "doc.json").read_text(encoding="utf-8"), dump_json(Doc().model_dump(mode="json"))
    assert json.loads(text) == json.loads(old) == Doc().model_dump(mode="json")
    assert text.replace("0.000015", "1.5e-05") == old


def _interrupted_commit(store, state, event="runtime_completed"):
    """What a SIGKILL right after RunStore.checkpoint's commit point (state.json saved) leaves."""
    log = store.checkpoints(state.run_id)
    path = log.prepare(event, {"run_id": state.run_id})
    state.checkpoints.append(path.name)
    store.save(state)
    return log, path


def test_resume_finishes_an_interrupted_checkpoint_commit_only_when_asked(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    log, path = _interrupted_commit(store, state)
    assert log.names() == [] and log.pending_path(path.name).exists()
    _, latest = store.resume(state.run_id)  # read-only validation accepts the window ...
    assert log.names() == [] and latest["event"] == "runtime_completed"
    store.resume(state.run_id, finish_pending=True)  # ... and under the lock completes it
    assert log.names() == [path.name] and not log.pending_path(path.name).exists()


def test_a_listed_checkpoint_without_its_pending_document_is_a_contradiction(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    log, path = _interrupted_commit(store, state)
    log.pending_path(path.name).unlink()
    with pytest.raises(RunDataError, match="does not hold"):
        store.resume(state.run_id)


def test_the_next_checkpoint_completes_an_interrupted_commit_first(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run("todo")
    log, _ = _interrupted_commit(store, state)
    store.checkpoint(state, "review_completed")
    assert log.names() == ["001-runtime_completed.json", "002-review_completed.json"] == state.checkpoints
    assert not [p for p in log.directory.iterdir() if p.name.startswith(".")]


def _identity(path):
    st = path.stat()
    return st.st_ino, st.st_mtime_ns


def test_a_save_that_changes_nothing_but_the_time_stamp_writes_nothing(tmp_path):
    """#46: a run saved 7 of its 36 states unchanged, an fsync each; such a save now writes nothing."""
    from harness.models.enums import RunStatus

    store = RunStore(tmp_path / "runs")
    state = store.create_run("a todo app")
    path = store.state_path(state.run_id)
    before, stamp = _identity(path), state.updated_at
    store.save(state)
    assert _identity(path) == before and state.updated_at == stamp
    state.status = RunStatus.SPEC_DONE
    store.save(state)                                   # a change is written, with a new time stamp
    assert _identity(path) != before
    assert store.load(state.run_id).status == RunStatus.SPEC_DONE


def test_an_unchanged_save_rewrites_a_state_file_someone_else_wrote_meanwhile(tmp_path):
    store = RunStore(tmp_path / "runs")
    state = store.create_run("a todo app")
    path = store.state_path(state.run_id)
    other = store.load(state.run_id)
    other.error = "written by another store"
    RunStore(tmp_path / "runs").save(other)             # another writer replaced the file
    store.save(state)                                   # unchanged for this store, but not on disk
    assert store.load(state.run_id).error == state.error != "written by another store"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"user_request": "a todo app"', '"user_request": "edited"'), encoding="utf-8")
    assert store.load(state.run_id).user_request == "edited"
    store.save(state)                                   # edited in place: rewritten too
    assert store.load(state.run_id).user_request == "a todo app"
