"""#15 (d): the judging commands validate a run like `builder resume` does and never rewrite it."""

import json

import pytest

from run_copies import cli, harness_run_in_process


def _files(run_dir):
    return {p.relative_to(run_dir).as_posix(): p.read_bytes() for p in sorted(run_dir.rglob("*"))
            if p.is_file() and "workspace" not in p.parts}


def _delete_a_checkpoint(run_dir):
    victim = sorted((run_dir / "checkpoints").glob("*.json"))[3]
    victim.unlink()
    return victim.name


def _edit_recorded_hashes(run_dir):
    path = run_dir / "state.json"
    state = json.loads(path.read_text())
    task = sorted(state["file_hashes"])[0]
    rel = sorted(state["file_hashes"][task])[0]
    state["file_hashes"][task][rel] = "0" * 64
    path.write_text(json.dumps(state))
    return "state.json"


@pytest.mark.slow
@pytest.mark.parametrize("damage", [_delete_a_checkpoint, _edit_recorded_hashes])
@pytest.mark.parametrize("command", ["review", "trace", "status"])
def test_judging_command_exits_3_on_a_damaged_run(fresh_todo_run, capsys, damage, command):
    store, run_id = fresh_todo_run
    run_dir = store.run_dir(run_id)
    named = damage(run_dir)
    before = _files(run_dir)
    code, out, err = cli(capsys, command, run_id, "--runs-dir", str(store.base))
    assert code == 3, out + err
    assert named in err or "checkpoint" in err, err  # the damaged file or directory is named
    assert "PASS" not in out
    assert _files(run_dir) == before


@pytest.mark.slow
def test_harness_run_exits_3_when_a_checkpoint_is_deleted(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    run_dir = store.run_dir(run_id)
    _delete_a_checkpoint(run_dir)
    before = _files(run_dir)
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 3, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "checkpoint" in proc.stderr and "PASS" not in proc.stdout
    assert _files(run_dir) == before
