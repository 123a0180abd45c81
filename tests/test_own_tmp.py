"""Temporary directories named by their maker's pid, and the sweep of those a SIGKILL left behind
(`harness/utils/own_tmp.py`). Bug: every SIGKILLed builder left its sandbox's and its warm
worker's directories in /tmp for good (the suite's crash tests left ~40 a run)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from harness.utils import own_tmp
from harness.verification.verifier import _OUTBOX, redact_paths


def dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    return int(proc.stdout)


def test_a_sigkilled_makers_directories_are_swept_and_live_ones_kept(tmp_path):
    maker = subprocess.Popen([sys.executable, "-c", (
        "import os, signal, sys; sys.path.insert(0, sys.argv[1]); import tempfile; tempfile.tempdir = sys.argv[2];"
        "from harness.utils import own_tmp; d = own_tmp.make('sbx'); (d / 'tmp').mkdir();"
        "(d / 'tmp' / 'app.db').write_text('x'); print(d, flush=True); os.kill(os.getpid(), signal.SIGKILL)"),
        str(Path(own_tmp.__file__).parents[2]), str(tmp_path)], stdout=subprocess.PIPE, text=True)
    left = Path(maker.stdout.readline().strip())
    assert maker.wait(10) == -signal.SIGKILL
    assert left.parent == tmp_path and left.name.startswith(f"harness-sbx-{maker.pid}-") and left.is_dir()
    live = tmp_path / f"harness-warm-{os.getpid()}-mine"
    parent = tmp_path / f"harness-runtime-{os.getppid()}-theirs"
    unrelated = tmp_path / f"harness-sbx-{dead_pid()}"            # no random part: not ours
    other_kind = tmp_path / f"harness-child-{dead_pid()}-x"       # made inside a sandbox, not here
    for d in (live, parent, unrelated, other_kind):
        d.mkdir()
    assert own_tmp.sweep_stale(tmp_path) == [left]
    assert not left.exists() and all(d.exists() for d in (live, parent, unrelated, other_kind))


def test_a_file_with_a_dead_makers_name_is_not_removed(tmp_path):
    squatter = tmp_path / f"harness-out-{dead_pid()}-file"
    squatter.write_text("not a directory")
    assert own_tmp.sweep_stale(tmp_path) == [] and squatter.exists()


def test_make_names_the_directory_by_kind_and_pid_and_sweeps_once(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(own_tmp, "_swept", False)
    stale = tmp_path / f"harness-warm-{dead_pid()}-old"
    stale.mkdir()
    made = own_tmp.make("out")
    assert made.parent == tmp_path and made.name.startswith(f"harness-out-{os.getpid()}-") and not stale.exists()
    stale.mkdir()
    own_tmp.make("out")
    assert stale.exists()  # one sweep a process
    with pytest.raises(ValueError, match="unknown temporary directory kind"):
        own_tmp.make("elsewhere")


@pytest.mark.parametrize("outbox", ["harness-out-123-ab_c9", "harness-warm-123-x_y/harness-out-123-z1",
                                    "harness-warm-123-x_y/clone-k2j_/harness-out-123-z1"])
def test_evidence_paths_in_output_are_redacted_cold_warm_and_cloned(outbox):
    path = f"{tempfile.gettempdir()}/{outbox}/evidence.json"
    assert _OUTBOX.fullmatch(path)
    assert redact_paths(f"wrote {path}\n", Path("/nonexistent-ws"), None) == "wrote <evidence>\n"


def test_scratch_of_a_killed_but_unreaped_maker_is_swept_at_once(tmp_path):
    """Bug: a maker SIGKILLed but not yet reaped (a zombie: its parent has not waited) counted as
    alive (kill(pid, 0) succeeds on a zombie), so a harness started right after the kill kept its
    directories (33 of 72 crash cases)."""
    maker = subprocess.Popen([sys.executable, "-c", (
        "import os, signal, sys; sys.path.insert(0, sys.argv[1]); import tempfile; tempfile.tempdir = sys.argv[2];"
        "from harness.utils import own_tmp; d = own_tmp.make('sbx'); print(d, flush=True);"
        "os.kill(os.getpid(), signal.SIGKILL)"),
        str(Path(own_tmp.__file__).parents[2]), str(tmp_path)], stdout=subprocess.PIPE, text=True)
    left = Path(maker.stdout.readline().strip())
    while Path(f"/proc/{maker.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
        os.sched_yield()   # dead, and deliberately not reaped yet
    try:
        assert own_tmp.sweep_stale(tmp_path) == [left] and not left.exists()
    finally:
        maker.wait(10)


@pytest.mark.slow
def test_resume_right_after_a_sigkill_sweeps_the_killed_builders_scratch(tmp_path):
    """End to end: `builder new` SIGKILLed while it verifies, `builder resume` started before the
    killed builder is reaped: none of the killed builder's scratch directories survive."""
    from tests.helpers import TODO, run_builder
    from tests.interrupt_helpers import Builder

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    runs = tmp_path / "runs"
    builder = Builder(tmp_path, "new", TODO, "--runs-dir", runs, "--no-audit", env={"TMPDIR": str(scratch)})
    builder.wait_for_line("TASK-002 verify")
    builder.wait_for(lambda: any(p.name.startswith(f"harness-sbx-{builder.proc.pid}-") for p in scratch.iterdir()),
                     "a sandbox directory of the builder")
    os.kill(builder.proc.pid, signal.SIGKILL)
    while Path(f"/proc/{builder.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
        os.sched_yield()
    try:
        [run_id] = [p.name for p in runs.iterdir()]
        resumed = run_builder("resume", run_id, "--runs-dir", runs, env={"TMPDIR": str(scratch)})
        assert resumed.returncode == 0, resumed.stdout[-2000:] + resumed.stderr[-2000:]
        left = [p.name for p in scratch.iterdir() if p.name.startswith("harness-") and f"-{builder.proc.pid}-" in p.name]
        assert left == []
    finally:
        builder.proc.wait(10)
