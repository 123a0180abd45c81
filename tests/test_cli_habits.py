"""Issue 18: CLI habits — --json views, colour rules, live progress, SIGTERM/Ctrl+C exit 143/130."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys

import pytest

from harness import interrupts
from harness.cli import build_parser, main
from harness.cli_style import colour_enabled, paint_status
from harness.progress import Progress, activity, format_elapsed
from harness.sandbox import procs
from harness.state.store import RunStore

TODO = "Build a Simple Todo App with add/list/complete"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


# ---- colour ---------------------------------------------------------------------------------

@pytest.mark.parametrize("stream, env, expected", [
    (_Tty(), {}, True), (io.StringIO(), {}, False), (_Tty(), {"NO_COLOR": "1"}, False),
    (_Tty(), {"NO_COLOR": ""}, True), (_Tty(), {"TERM": "dumb"}, False),
])
def test_colour_only_on_a_tty_without_no_color(stream, env, expected):
    assert colour_enabled(stream, env) is expected


def test_paint_status():
    assert paint_status("PASS", "PASS", True) == "\x1b[32mPASS\x1b[0m"
    assert paint_status("FAIL ", "FAIL", True) == "\x1b[31mFAIL \x1b[0m"
    assert paint_status("PASS", "PASS", False) == "PASS"
    assert paint_status("odd", "odd", True) == "odd"


def test_piped_status_has_no_escape_codes(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    assert main(["status", run_id, "--runs-dir", str(store.base)]) == 0
    assert "\x1b[" not in capsys.readouterr().out


# ---- --json ---------------------------------------------------------------------------------

def test_status_runs_logs_json(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    d = str(store.base)
    assert main(["status", run_id, "--runs-dir", d, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["run_id"] == run_id and doc["status"] == "PASS"
    assert [t["status"] for t in doc["tasks"]] == ["COMPLETED"] * len(doc["tasks"])
    assert {r["status"] for r in doc["requirements"]} == {"PASS"} and doc["next_step"].startswith("done")
    assert main(["runs", "--runs-dir", d, "--json"]) == 0
    assert [r["run_id"] for r in json.loads(capsys.readouterr().out)] == [run_id]
    assert main(["logs", run_id, "--runs-dir", d, "--json", "--tail", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and all(json.loads(line)["run_id"] == run_id for line in lines)
    assert json.loads(lines[-1])["stage"] == "review"


# ---- live progress --------------------------------------------------------------------------

@pytest.mark.parametrize("event, now", [
    ({"task_id": "TASK-001", "stage": "build", "status": "started"}, ("TASK-001", "build")),
    ({"task_id": "TASK-001", "stage": "build", "status": "completed"}, ("TASK-001", "verify")),
    ({"task_id": "TASK-001", "stage": "verify", "status": "FAIL"}, ("TASK-001", "repair")),
    ({"task_id": "TASK-001", "stage": "repair", "status": "patched"}, ("TASK-001", "repair")),
    ({"task_id": "TASK-001", "stage": "build", "status": "COMPLETED"}, None),
    ({"task_id": "TASK-001", "stage": "repair", "status": "ESCALATE"}, None),
    ({"task_id": "", "stage": "runtime", "status": "PASS"}, None),
])
def test_activity_from_events(event, now):
    assert activity(event) == now


def test_format_elapsed():
    assert (format_elapsed(3.44), format_elapsed(65.2)) == ("3.4s", "1m05s")


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _append(path, **event):
    with path.open("a") as fh:
        fh.write(json.dumps(event) + "\n")


def test_live_line_on_a_tty_shows_task_stage_elapsed_and_clears_for_output(tmp_path):
    log, out, printed, clock = tmp_path / "events.log", _Tty(), [], _Clock()
    progress = Progress(log, out, live=True, say=printed.append, clock=clock)
    _append(log, task_id="TASK-002", stage="build", status="completed")
    progress.poll()
    clock.now += 3.4
    progress.poll()
    assert out.getvalue().endswith("\r\x1b[K  TASK-002 verify 3.4s")
    progress.say("  TASK-002 COMPLETED x")
    assert printed == ["  TASK-002 COMPLETED x"]
    _append(log, task_id="TASK-002", stage="build", status="COMPLETED")
    _append(log, task_id="TASK-003", stage="build", status="st")  # torn line: not yet complete
    with log.open("a") as fh:
        fh.write('{"task_id": "TASK-00')
    progress.poll()
    assert out.getvalue().endswith("\r\x1b[K  TASK-003 build 0.0s")


def test_plain_lines_when_not_a_tty(tmp_path):
    log, printed = tmp_path / "events.log", []
    progress = Progress(log, io.StringIO(), live=False, say=printed.append, clock=_Clock())
    for status in ("started", "completed"):
        _append(log, task_id="TASK-001", stage="build", status=status)
    _append(log, task_id="TASK-001", stage="build", status="COMPLETED")
    progress.poll()
    progress.poll()
    assert printed == ["  TASK-001 build …", "  TASK-001 verify …"]


def test_progress_printed_a_tasks_build_line_after_its_result_bug(tmp_path):
    """Bug: piped output showed 'TASK-002 FAILED …' and then 'TASK-002 build …' (the poller lagged)."""
    log, printed = tmp_path / "events.log", []
    progress = Progress(log, io.StringIO(), live=False, say=printed.append, clock=_Clock())
    _append(log, task_id="TASK-002", stage="build", status="started")   # not yet polled by the thread
    progress.say("  TASK-002 FAILED    Unsupported offline: SMS")
    assert printed == ["  TASK-002 build …", "  TASK-002 FAILED    Unsupported offline: SMS"]
    progress.poll()
    assert len(printed) == 2   # the activity is not printed twice


# ---- interrupts -----------------------------------------------------------------------------

def test_interrupt_messages_and_codes():
    exc = interrupts.Terminated()
    assert (interrupts.exit_code(exc), interrupts.exit_code(KeyboardInterrupt())) == (143, 130)
    assert interrupts.message(KeyboardInterrupt()) == "builder: interrupted (Ctrl+C)"
    exc.run_id = "run_ab"
    assert interrupts.message(exc) == ("builder: interrupted (SIGTERM); run run_ab is saved: "
                                       "`builder resume run_ab` continues it")


def test_help_documents_the_exit_codes_and_output_rules():
    text = build_parser().format_help()
    assert "130 interrupted by Ctrl+C, 143 by SIGTERM" in text and "NO_COLOR" in text


def _interrupt_during_verify(runs, sig) -> tuple[subprocess.CompletedProcess, str]:
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "new", TODO, "--runs-dir", str(runs),
                             "--no-audit"],  # about the interrupt, not the audit; resume must keep it
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    for line in proc.stdout:  # plain progress lines: no TTY here
        seen.append(line)
        if "TASK-002 verify" in line:
            proc.send_signal(sig)
            break
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, "".join(seen) + out, err), err


@pytest.mark.slow
@pytest.mark.parametrize("sig, code, resume", [(signal.SIGTERM, 143, True), (signal.SIGINT, 130, False)])
def test_signal_stops_children_names_the_run_and_leaves_it_resumable(tmp_path, sig, code, resume):
    runs = tmp_path / "runs"
    result, err = _interrupt_during_verify(runs, sig)
    assert result.returncode == code, err
    [run_dir] = list(runs.iterdir())
    run_id = run_dir.name
    assert f"run {run_id} is saved: `builder resume {run_id}` continues it" in err
    assert "Traceback" not in err
    store = RunStore(runs)
    assert procs.find_leftovers(scope=procs.scope_of(store.workspace(run_id))) == set()
    events = [json.loads(line) for line in store.events_path(run_id).read_text().splitlines()]
    assert events[-1]["status"] == "interrupted"
    state = store.load(run_id)
    assert state.task_results["TASK-001"].value == "COMPLETED"
    if resume:
        done = subprocess.run([sys.executable, "-m", "harness.cli", "resume", run_id, "--runs-dir", str(runs)],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert "BUILD COMPLETE" in done.stdout
        # bug: resume of a `new --no-audit` run audited it (the flag was not stored in state)
        assert "mutation audit skipped (the run was started with --no-audit)" in done.stdout
        assert store.read_audit(run_id) is None
