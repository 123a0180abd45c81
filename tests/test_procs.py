"""#16 process containment without an OS sandbox: markers, subreaper, sweeps."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from harness.sandbox import procs
from harness.sandbox.runner import sweep_leftovers


def _running(arg: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                argv = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
                state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if arg.encode() in argv and state != "Z":
                found.append(int(name))
    return found


def _detached_sleep(env: dict[str, str]) -> str:
    """A `sleep` that double-forked away from us (its parent exited), as a killed builder leaves it."""
    arg = f"{2000 + uuid.uuid4().int % 10**6 / 1000:.3f}"
    code = (f"import subprocess; subprocess.Popen(['sleep', {arg!r}], start_new_session=True, "
            f"env={env!r}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=30)
    deadline = time.monotonic() + 5
    while not _running(arg):
        assert time.monotonic() < deadline, "the sleep never started"
        time.sleep(0.02)
    return arg


def test_resume_sweep_kills_a_detached_process_left_for_the_workspace(tmp_path):
    """#16: after SIGKILL of builder a test child kept running; resume sweeps what carries the run's scope."""
    ws = tmp_path / "runs" / "r1" / "workspace"
    ws.mkdir(parents=True)
    arg = _detached_sleep({"PATH": os.environ["PATH"], procs.ENV_SCOPE: procs.scope_of(ws)})
    killed = sweep_leftovers(ws)
    assert killed and not _running(arg)


def test_sweep_leaves_processes_of_other_workspaces_alone(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    arg = _detached_sleep({"PATH": os.environ["PATH"], procs.ENV_SCOPE: procs.scope_of(other)})
    try:
        mine = tmp_path / "mine"
        mine.mkdir()
        assert sweep_leftovers(mine) == [] and _running(arg)
    finally:
        sweep_leftovers(other)
    assert not _running(arg)


def test_one_sweep_kills_the_leftovers_of_several_workspaces_and_only_theirs(tmp_path):
    """The audit's scratch directory and its lanes are swept in one pass over /proc (#46)."""
    lanes = [tmp_path / name for name in ("scratch", "lane-0", "lane-1", "elsewhere")]
    for lane in lanes:
        lane.mkdir()
    args = [_detached_sleep({"PATH": os.environ["PATH"], procs.ENV_SCOPE: procs.scope_of(lane)}) for lane in lanes]
    try:
        killed = sweep_leftovers(*lanes[:3])
        # a pid killed in one pass may be seen again before it is gone: count distinct ones
        assert len(set(killed)) == 3 and not any(_running(arg) for arg in args[:3]) and _running(args[3])
    finally:
        sweep_leftovers(lanes[3])
    assert not _running(args[3])


def test_scope_is_stable_per_workspace_and_distinct_across_workspaces(tmp_path):
    assert procs.scope_of(tmp_path / "a") == procs.scope_of(tmp_path / "a") != procs.scope_of(tmp_path / "b")


def test_harness_can_become_a_child_subreaper():
    assert procs.become_subreaper() is True
