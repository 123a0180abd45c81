"""#46.4: a warm worker's forked session is as cut off as a cold command — hostile cases, warm vs cold.

Each probe is a real test module run through the real verifier twice cold (HARNESS_WARM=0) and
twice warm (one worker serves both): a session that leaves a file in /tmp or HOME for the next one,
a session that tries to take the worker's fds with pidfd_getfd or read its memory. The verdicts must
be the same both ways, and the hostile ones must not get what they went for.
"""

from __future__ import annotations

import json
import shutil

import pytest

from harness.speed.warm import workers as warm
from harness.speed.runners import WarmRunner
from harness.verification.verifier import run_command
from helpers import warm_workers_stopped_after

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (CI installs it)")]

LEAVES_A_FILE = '''import os
import tempfile
from pathlib import Path

PLACES = ("/tmp/left-by-an-earlier-session", os.path.join(tempfile.gettempdir(), "left-in-tmpdir"),
          os.path.join(os.environ["HOME"], "left-in-home"))


def test_sees_nothing_an_earlier_session_left():
    seen = [p for p in PLACES if os.path.exists(p)]
    for place in PLACES:
        Path(place).write_text("x")
    assert seen == []
'''

TAKES_THE_WORKERS_FDS = '''import ctypes
import json
import os

SYS_PIDFD_OPEN, SYS_PIDFD_GETFD = 434, 438


def test_cannot_take_the_parents_fds_or_read_its_memory():
    libc = ctypes.CDLL(None, use_errno=True)
    parent = os.getppid()
    kind = "worker" if b"speed/warm/worker.py" in open(f"/proc/{parent}/cmdline", "rb").read() else "other"
    pidfd = libc.syscall(SYS_PIDFD_OPEN, parent, 0)
    taken = []
    if pidfd >= 0:
        for fd in range(64):
            got = libc.syscall(SYS_PIDFD_GETFD, pidfd, fd, 0)
            if got >= 0:
                taken.append(fd)
                os.close(got)
    try:
        with open(f"/proc/{parent}/mem", "rb") as mem:
            mem.seek(int(open(f"/proc/{parent}/maps").read().split("-")[0], 16))
            read = len(mem.read(16))
    except OSError:
        read = 0
    with open(os.path.join(os.environ["HARNESS_SHARED_DIR"], "report.jsonl"), "a") as fh:
        fh.write(json.dumps([kind, taken, read]) + "\\n")
    if kind == "worker":
        assert (taken, read) == ([], 0), f"took fds {taken} / read {read} bytes of the worker"
'''


def _run_four(tmp_path, module: str) -> dict[str, tuple[str, str]]:
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "pytest.ini").write_text("[pytest]\n")
    (ws / "tests" / "test_probe.py").write_text(module)
    (tmp_path / "shared").mkdir()
    outcomes = {}
    with pytest.MonkeyPatch.context() as mp, warm_workers_stopped_after():
        mp.delenv("HARNESS_SANDBOX", raising=False)
        mp.setenv("HARNESS_SHARED_DIR", str(tmp_path / "shared"))
        for mode in ("cold", "warm"):
            mp.setenv(warm.ENV_WARM, "0" if mode == "cold" else "1")
            for n in (1, 2):
                res = run_command("python -m pytest -q tests", ws, task_id="T", timeout_s=120, runner=WarmRunner())
                outcomes[f"{mode}{n}"] = (res.runner, res.status, res.stdout[-600:])
    return outcomes


def test_tmp_and_home_do_not_leak_between_warm_sessions(tmp_path):
    """Regression (#46): /tmp persisted across the sessions of one worker (a test passed warm and
    failed cold); now every session starts with an empty /tmp, TMPDIR and HOME, warm as cold."""
    got = _run_four(tmp_path, LEAVES_A_FILE)
    assert {k: v[:2] for k, v in got.items()} == {
        "cold1": ("cold", "PASS"), "cold2": ("cold", "PASS"), "warm1": ("warm", "PASS"), "warm2": ("warm", "PASS")}, got


def test_a_warm_session_cannot_take_the_workers_control_socket_or_read_its_memory(tmp_path):
    """Regression (#46): a test took the worker's control socket with pidfd_getfd and could read
    the worker's memory; the worker is now non-dumpable and its children hold no capability."""
    got = _run_four(tmp_path, TAKES_THE_WORKERS_FDS)
    assert {k: v[:2] for k, v in got.items()} == {
        "cold1": ("cold", "PASS"), "cold2": ("cold", "PASS"), "warm1": ("warm", "PASS"), "warm2": ("warm", "PASS")}, got
    reports = [json.loads(line) for line in (tmp_path / "shared" / "report.jsonl").read_text().splitlines()]
    # a cold command's parent is bubblewrap's own init inside the sandbox (it holds nothing of the
    # harness); a warm session's parent is the worker, and it got nothing from it
    assert [r[0] for r in reports] == ["other", "other", "worker", "worker"]
    assert reports[2:] == [["worker", [], 0], ["worker", [], 0]]
