"""#16 robustness holes from the attack run: each test is named after the hole it pins."""

from __future__ import annotations

import json
import shutil

import pytest
from resume_helpers import builder
from run_copies import cli

from harness.agents.planner import fallback_plan, parse_plan
from harness.errors import EXIT_RUN_DATA, EXIT_TEMPFAIL, EXIT_USAGE, InputError
from harness.offline.spec.rules import rule_based_spec
from harness.state.store import validate_request
from harness.validation.plan_validator import path_error, validate_plan

TODO = "Build a Simple Todo App with add/list/complete"


# ---- plan file names ---------------------------------------------------------------------------

def test_plan_file_name_over_255_bytes_is_a_plan_validation_error_not_an_oserror():
    """#16: a 300-byte name raised OSError mid-task and the task was saved COMPLETED without its checkpoint."""
    long_name = "src/" + "a" * 253 + ".py"  # 256 bytes
    assert "longer than 255 bytes" in path_error(long_name)
    assert path_error("src/" + "é" * 127 + ".py") is not None   # bytes, not characters
    assert path_error("src/" + "a" * 200 + ".py") is None
    spec = rule_based_spec("a todo app")
    plan = fallback_plan(spec)
    plan.tasks[0].files_touched = [*plan.tasks[0].files_touched[:-1], long_name]
    assert any("longer than 255 bytes" in e for e in validate_plan(plan.tasks, spec))
    with pytest.raises(ValueError, match="longer than 255 bytes"):
        parse_plan(plan.model_dump_json(), spec)


# ---- resume on a deleted workspace -------------------------------------------------------------

@pytest.mark.slow
def test_resume_on_a_deleted_workspace_blames_the_completed_task_whose_files_are_gone(tmp_path, crashed_todo_run):
    """#16: resume rebuilt later tasks on missing files and blamed the wrong task. The run is a private
    copy of the shared `builder new` killed right after TASK-002 (conftest.crashed_todo_run)."""
    runs = tmp_path / "runs"
    assert crashed_todo_run.returncode != 0
    shutil.copytree(crashed_todo_run.run, runs / "crashy")
    shutil.rmtree(runs / "crashy" / "workspace")
    (runs / "crashy" / "workspace").mkdir()
    resumed = builder("resume", "crashy", "--runs-dir", runs)
    assert resumed.returncode == EXIT_RUN_DATA, resumed.stdout + resumed.stderr
    assert "TASK-001 is COMPLETED but its files no longer match the run" in resumed.stderr
    assert "missing" in resumed.stderr and "Traceback" not in resumed.stderr
    assert "TASK-003" not in resumed.stdout  # nothing was rebuilt on the missing files


# ---- invalid UTF-8 in run files ----------------------------------------------------------------

@pytest.mark.slow
def test_invalid_utf8_in_events_log_and_evidence_is_no_traceback_in_logs_review_trace(fresh_todo_run, capsys):
    """#16: a stray 0xff byte in events.log or an evidence file crashed `logs`, `review` and `trace`."""
    store, run_id = fresh_todo_run
    run_dir = store.run_dir(run_id)
    with open(run_dir / "events.log", "ab") as fh:
        fh.write(b'{"stage": "x\xff\xfe", "status": "ok"}\n\xff\xfe\xfd not json\n')
    evidence = run_dir / "evidence" / "workspace.json"
    evidence.write_bytes(evidence.read_bytes().replace(b'"tests"', b'"te\xffsts"', 1))
    code, out, err = cli(capsys, "logs", run_id, "--runs-dir", str(store.base))
    assert code == 0 and "x\ufffd\ufffd" in out and "Traceback" not in err
    for command in ("review", "trace"):
        code, out, err = cli(capsys, command, run_id, "--runs-dir", str(store.base))
        assert code in (0, 1, 3) and "Traceback" not in out + err, (command, err)


# ---- CLI input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("request_text", ["a todo app\r", "a todo\rapp", "a todo app\x85", "a \x9b2J todo app"])
def test_carriage_return_and_c1_controls_in_requests_are_refused(request_text):
    """#16: \\r and U+0080–U+009F were accepted and rewrote `builder runs` columns."""
    with pytest.raises(InputError, match="control characters"):
        validate_request(request_text)


@pytest.mark.parametrize("run_id", ["x\n", "", "a/b", " x"])
def test_bad_run_ids_are_usage_errors_not_silently_replaced(tmp_path, capsys, run_id):
    """#16: `--run-id $'x\\n'` passed the `$`-anchored match; `--run-id ''` got a generated id."""
    code, _out, err = cli(capsys, "new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", run_id)
    assert code == EXIT_USAGE and "invalid run id" in err
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_file_given_as_runs_dir_is_named_as_such_not_run_already_exists(tmp_path, capsys):
    """#16: a regular file as --runs-dir was reported as "run already exists"."""
    target = tmp_path / "runs.txt"
    target.write_text("not a directory")
    code, _out, err = cli(capsys, "new", TODO, "--runs-dir", str(target), "--run-id", "r1")
    assert code == EXIT_USAGE and "is not a directory" in err and "already exists" not in err


@pytest.mark.parametrize("argv,env", [(["--max-minutes", "nan"], {}), (["--max-minutes", "inf"], {}),
                                      ([], {"HARNESS_MAX_MINUTES": "nan"})])
def test_nan_budgets_are_usage_errors(tmp_path, capsys, monkeypatch, argv, env):
    """#16: `--max-minutes nan` / HARNESS_MAX_MINUTES=nan were accepted (and never trip)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, _out, err = cli(capsys, "new", TODO, "--runs-dir", str(tmp_path / "runs"), *argv)
    assert code == EXIT_USAGE and ("finite" in err or "HARNESS_MAX_MINUTES" in err)


def test_max_minutes_applies_offline_too(tmp_path, capsys):
    """#16: --max-minutes was ignored without a model: it is checked before every task."""
    code, _out, err = cli(capsys, "new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", "slowpoke",
                          "--max-minutes", "0.000001")
    assert code == EXIT_TEMPFAIL and "budget exceeded" in err and "minutes" in err
    state = json.loads((tmp_path / "runs" / "slowpoke" / "state.json").read_text())
    assert state["plan"] is not None and set(state["task_results"].values()) == {"PENDING"}


@pytest.mark.slow
def test_logs_tail_negative_is_refused_and_tail_counts_from_the_end(fresh_todo_run, capsys):
    """#16: `builder logs --tail -3` silently dropped the FIRST three events."""
    store, run_id = fresh_todo_run
    base = ["logs", run_id, "--runs-dir", str(store.base)]
    code, _out, err = cli(capsys, *base, "--tail", "-3")
    assert code == EXIT_USAGE and "--tail -3" in err
    _, everything, _ = cli(capsys, *base)
    lines = [line for line in everything.splitlines() if not line.startswith("failure report")]
    _, last_two, _ = cli(capsys, *base, "--tail", "2")
    assert last_two.splitlines()[:2] == lines[-2:]
    _, none, _ = cli(capsys, *base, "--tail", "0")
    assert [line for line in none.splitlines() if not line.startswith("failure report")] == []
