"""The `builder` CLI: stage lines, artifacts, exit codes, one-line errors (never a traceback)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main

TODO = "Build a Simple Todo App with add/list/complete"


def run_cli(*args, cwd=None, env=None):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "HARNESS_"))}
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=full_env, timeout=300)


def run_main(*args) -> subprocess.CompletedProcess:
    """`builder ARGS` in-process (`main`, the console script's code path, argparse's exits included):
    its exit code, stdout and stderr as a CompletedProcess."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["builder", *args], code, out.getvalue(), err.getvalue())


def assert_one_line_error(proc, code):
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.mark.slow
def test_builder_new_todo_end_to_end_via_cli(tmp_path):
    # --no-audit: nothing here asserts on the audit (its stage line is printed either way); the default
    # CLI build with the audit is test_containment_cli's bwrap build, the audit itself test_audit*.py's
    proc = run_cli("new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", "cli_todo", "--json", "--no-audit")
    out = proc.stderr  # with --json the human-readable lines go to stderr, the result to stdout
    assert proc.returncode == 0, out + proc.stdout
    positions = [out.index(f"[{n}/6] {stage}") for n, stage in
                 enumerate(["SPEC", "PLAN", "BUILD", "VERIFY", "AUDIT", "REVIEW"], start=1)]
    assert positions == sorted(positions)
    assert "TASK-001 COMPLETED" in out and "Implemented: YES" in out and "Runtime: YES" in out
    data = json.loads(proc.stdout)
    assert data["status"] == "BUILD COMPLETE" and data["run_id"] == "cli_todo"
    assert {r["status"] for r in data["requirements"]} == {"PASS"} and data["runtime"] == "PASS"
    run = tmp_path / "runs" / "cli_todo"
    for name in ("state.json", "spec.json", "tasks.json", "verification.json", "review.json", "events.log",
                 "matrix.json", "runtime.json", "evidence/workspace.json", "requirements/REQ-001.json"):
        assert (run / name).exists(), name
    tasks = json.loads((run / "tasks.json").read_text())["tasks"]
    assert 5 <= len(tasks) <= 8
    state = json.loads((run / "state.json").read_text())
    assert sorted(t["id"] for t in tasks) == sorted(state["task_results"])
    assert all("status" not in t for t in tasks + state["plan"]["tasks"]), "status lives only in task_results"
    evidence = json.loads((run / "evidence/workspace.json").read_text())
    assert evidence["complete"] and evidence["gate"]["passed"]
    for rid, req in evidence["requirements"].items():
        passed = [n for n in req["tests"] if evidence["tests"][n]["outcome"] == "passed"]
        assert req["status"] == "verified" and any(evidence["tests"][n]["checks"] for n in passed), rid
    assert str(tmp_path) not in (run / "verification.json").read_text()


def test_human_output_ends_with_build_complete(todo_run, capsys):
    from harness.commands.build import finish as _finish

    class Args:
        quiet = False
        json = False

    _, ctx = todo_run
    assert _finish(Args(), ctx) == 0
    out = capsys.readouterr().out
    assert "Status: PASS" in out and out.strip().splitlines()[-1].startswith("BUILD COMPLETE  run ")


@pytest.mark.slow
def test_generated_workspace_passes_on_its_own(todo_run):
    """Plain pytest without the harness's plugin, and (as a user's environment would be) without the
    plugins installed here that the workspace's requirements.txt does not bring (hypothesis, xdist...)."""
    from harness.verification.plugins import disable_args

    store, ctx = todo_run
    ws = store.workspace(ctx.run_id)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:harness", "-p", "no:cacheprovider",
                           *disable_args((ws / "requirements.txt").read_text())],
                          cwd=ws, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert "warning" not in proc.stdout.lower()


@pytest.mark.slow
def test_out_of_scope_request_fails_honestly(tmp_path):
    proc = run_cli("new", "Build a 3D racing game", "--runs-dir", str(tmp_path / "runs"))
    assert proc.returncode == 1
    assert "BUILD FAILED" in proc.stdout and "an LLM provider is" in proc.stdout
    assert "3D racing game" in proc.stdout


def test_help_and_version():
    """In-process (argparse prints and exits the same way); the real process's --version is below."""
    version = run_main("--version")
    assert version.returncode == 0 and version.stdout.startswith("builder ")
    helptext = run_main("--help").stdout
    for word in ("new", "resume", "logs", "status", "runs", "trace", "review", "bench", "exit codes", "75"):
        assert word in helptext


USAGE_ERRORS = [
    (["frobnicate"], 2),
    (["new"], 2),
    (["new", "todo", "--bogus-flag"], 2),
    (["status", "run_nothere"], 4),
    (["logs", "run_nothere"], 4),
    (["resume", "run_nothere"], 4),
    (["trace", "../etc"], 2),
]
# as real processes: an argparse error (exit 2) and a missing run (exit 4); every case in-process below
USAGE_ERRORS_AS_PROCESSES = [(["new", "todo", "--bogus-flag"], 2), (["resume", "run_nothere"], 4)]


def _usage_argv(args, tmp_path):
    return [*args, "--runs-dir", str(tmp_path / "runs")] if args[0] not in ("frobnicate",) else args


@pytest.mark.slow
@pytest.mark.parametrize("args, code", USAGE_ERRORS_AS_PROCESSES)
def test_usage_errors_are_one_line(tmp_path, args, code):
    proc = run_cli(*_usage_argv(args, tmp_path))
    assert_one_line_error(proc, code)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


@pytest.mark.parametrize("args, code", USAGE_ERRORS)
def test_usage_errors_are_one_line_in_process(tmp_path, args, code):
    """The same cases through `main` (the console script's code path): one stderr line, the exit code."""
    proc = run_main(*_usage_argv(args, tmp_path))
    assert_one_line_error(proc, code)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


@pytest.mark.parametrize("args", [["new", "   "], ["new", "x" * 20_001], ["new", "todo\x01app"]])
def test_bad_requests_are_one_line_usage_errors(tmp_path, capsys, args):
    """The request checks of `builder new` (in-process `main`, the console script's code path; the
    real process's exit code and stderr line are the subprocess cases above)."""
    code = main([*args, "--runs-dir", str(tmp_path / "runs")])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert len([line for line in err.splitlines() if line.strip()]) == 1, err
    assert "Traceback" not in out + err
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


@pytest.mark.slow
def test_corrupt_run_is_exit_3(fresh_todo_run, capsys):
    """`review` as a real process (its only subprocess case); status, trace and resume in-process
    (`main`, the console script's code path; their processes are the usage-error cases above)."""
    store, run_id = fresh_todo_run
    (store.run_dir(run_id) / "state.json").write_text("{")
    proc = run_cli("review", run_id, "--runs-dir", str(store.base))
    assert_one_line_error(proc, 3)
    assert "state.json" in proc.stderr
    for cmd in ("status", "trace", "resume"):
        code = main([cmd, run_id, "--runs-dir", str(store.base)])
        out, err = capsys.readouterr()
        assert_one_line_error(subprocess.CompletedProcess(cmd, code, out, err), 3)
        assert "state.json" in err


@pytest.mark.slow
def test_unwritable_runs_dir_is_a_usage_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    proc = run_cli("new", TODO, "--runs-dir", str(blocker / "runs"))
    assert_one_line_error(proc, 2)
    assert "runs directory" in proc.stderr


def test_status_runs_and_logs_views(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    assert main(["status", run_id, "--runs-dir", str(store.base)]) == 0
    out = capsys.readouterr().out
    assert "status PASS" in out and "TASK-001 COMPLETED" in out and "REQ-004 PASS" in out and "next step:" in out
    assert main(["runs", "--runs-dir", str(store.base)]) == 0
    assert run_id in capsys.readouterr().out
    assert main(["logs", run_id, "--runs-dir", str(store.base), "--stage", "verify"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(" verify " in line for line in lines)
    assert main(["logs", run_id, "--runs-dir", str(store.base), "--task", "TASK-002", "--tail", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all("TASK-002" in line for line in lines)


def test_status_under_runs_dir_names_paths_under_that_directory_not_runs(fresh_todo_run, capsys):
    """#12: `builder status` printed runs/<id>/failures/... even when --runs-dir pointed elsewhere."""
    from harness.models.enums import RunStatus, TaskStatus

    store, run_id = fresh_todo_run
    assert main(["status", run_id, "--runs-dir", str(store.base)]) == 0
    done = capsys.readouterr().out.splitlines()[-1]
    assert str(store.workspace(run_id)) in done, done
    state = store.load(run_id)
    state.task_results["TASK-002"] = TaskStatus.FAILED
    state.file_hashes.pop("TASK-002", None)
    state.status = RunStatus.FAIL
    store.checkpoint(state, "task_failed", {"error": "made to fail by the test"}, "TASK-002")
    assert main(["status", run_id, "--runs-dir", str(store.base)]) == 0
    step = capsys.readouterr().out.splitlines()[-1]
    assert f"see {store.failure_report(run_id, 'TASK-002')} and" in step, step
    assert str(store.failure_report(run_id, "TASK-002")).startswith(str(store.base))
    assert f"runs/{run_id}/" not in step.replace(str(store.base), "<base>"), step


@pytest.mark.slow
def test_python_m_harness_cli_is_equivalent_to_builder():
    # the console script installed beside this interpreter (an unactivated venv has it off PATH)
    script = Path(sys.executable).with_name("builder")
    a = subprocess.run([str(script) if script.exists() else "builder", "--version"], capture_output=True, text=True)
    b = run_cli("--version")
    assert a.stdout == b.stdout and a.returncode == b.returncode == 0
    assert b.stdout.startswith("builder ")


def test_logs_follow_prints_existing_and_new_events_until_interrupted(fresh_todo_run):
    import signal

    from harness.utils.events import EventLog

    store, run_id = fresh_todo_run
    state = store.load(run_id)
    log = EventLog(store.run_dir(run_id) / "events.log", run_id, state.trace_id)
    log.emit("note", "written-before")
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "logs", run_id, "--runs-dir", str(store.base),
                             "--follow", "--stage", "note"], stdout=subprocess.PIPE, text=True)
    try:
        assert "written-before" in proc.stdout.readline()  # the initial listing
        log.emit("note", "appended-later")
        line = proc.stdout.readline()  # blocks until the follower sees the new event
        assert "appended-later" in line and " note " in line
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
