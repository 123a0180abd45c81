"""#16 containment: what a generated test can read, write, reach and leave behind.

Each attack runs as a real generated test through the real verifier (pytest in the sandbox), once
under bubblewrap and once with the OS sandbox switched off (HARNESS_SANDBOX=none). The attack test
always passes and writes what it managed to do into a shared directory (HARNESS_SHARED_DIR: the
workspace is read-only); the assertions read that.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
import uuid
from pathlib import Path

import pytest

from harness.sandbox import isolation_label
from harness.sandbox.isolation import BWRAP, NONE
from harness.verification.verifier import run_command
from helpers import warm_workers_stopped_after

pytestmark = pytest.mark.slow  # every test runs a real pytest session in the sandbox

ATTACK = '''
import json, os, socket, subprocess
from pathlib import Path


def attempt(fn):
    try:
        return {"ok": True, "value": fn()}
    except Exception as exc:
        return {"ok": False, "value": type(exc).__name__}


def visible_environs():
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                out.append(open(f"/proc/{name}/environ", "rb").read().decode("latin-1"))
            except OSError:
                pass
    return out


def forge():
    with open(RUN_DIR + "/events.log", "a") as fh:
        fh.write("forged\\n")


def test_attack():
    report = {
        "env": dict(os.environ),
        "parent_environ": attempt(lambda: open(f"/proc/{os.getppid()}/environ", "rb").read().decode("latin-1")),
        "environs": visible_environs(),
        "read_outside": attempt(lambda: open(SECRET).read()),
        "write_outside": attempt(forge),
        "connect": attempt(lambda: socket.create_connection(("127.0.0.1", PORT), timeout=2).close()),
    }
    subprocess.Popen(["setsid", "sleep", SLEEP], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)
    Path(SHARED, "report.json").write_text(json.dumps(report))  # the workspace is read-only
    assert True
'''


@pytest.fixture(scope="module", params=["bwrap", "none"])
def isolation(request) -> str:
    if request.param == "bwrap" and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed (CI installs it)")
    return BWRAP if request.param == "bwrap" else NONE


def _procs_with_arg(arg: str) -> list[int]:
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


def _gone(arg: str, within_s: float = 3.0) -> bool:
    deadline = time.monotonic() + within_s
    while _procs_with_arg(arg):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture(scope="module")
def attacked(tmp_path_factory, isolation):
    """The attack test run once per isolation mode in a run-shaped directory; every test below reads
    what that one run did (they were a run each): (report, result, run_dir, sleep arg, key)."""
    with pytest.MonkeyPatch.context() as mp, warm_workers_stopped_after():
        for name in [n for n in os.environ if n.startswith(("OPENAI_", "HARNESS_"))]:
            mp.delenv(name)  # module scope: set up before the autouse env scrubber of conftest.py
        mp.setenv("HARNESS_SANDBOX", "auto" if isolation == BWRAP else "none")
        assert isolation_label() == isolation
        key = f"sk-containment-{uuid.uuid4().hex}"
        mp.setenv("OPENAI_API_KEY", key)
        for name in ("DATABASE_URL", "SECRET", "SSH_AUTH_SOCK", "SLACK_WEBHOOK_URL"):
            mp.setenv(name, key)
        tmp_path = tmp_path_factory.mktemp("attack")
        shared = tmp_path / "shared"  # where the attack leaves its report (HARNESS_SHARED_DIR)
        shared.mkdir()
        mp.setenv("HARNESS_SHARED_DIR", str(shared))
        secret = tmp_path / "outside" / "secret.txt"
        secret.parent.mkdir()
        secret.write_text("host secret")
        run_dir = tmp_path / "runs" / "run_attack"
        ws = run_dir / "workspace"
        (ws / "tests").mkdir(parents=True)
        (run_dir / "events.log").write_text("")
        sleep_arg = f"{1000 + uuid.uuid4().int % 10**6 / 1000:.3f}"
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen()
            code = (f"SHARED = {str(shared)!r}\nSECRET = {str(secret)!r}\nRUN_DIR = {str(run_dir)!r}\nPORT = {listener.getsockname()[1]}\n"
                    f"SLEEP = {sleep_arg!r}\n" + ATTACK)
            (ws / "tests" / "test_attack.py").write_text(code)
            from harness.speed.runners import WarmRunner   # as a build runs it: warm when warm is on

            result = run_command("pytest -q", ws, task_id="TASK-001", evidence_path=run_dir / "evidence" / "e.json",
                                 reqs=[], run_id="run_attack", runner=WarmRunner())
    report = json.loads((shared / "report.json").read_text())
    return report, result, run_dir, sleep_arg, key


def test_generated_test_sees_only_the_allowlisted_environment(attacked, isolation):
    report, result, _run_dir, _sleep, key = attacked
    assert result.status == "PASS", result.stdout + result.stderr
    env = report["env"]
    assert not {"OPENAI_API_KEY", "DATABASE_URL", "SECRET", "SSH_AUTH_SOCK", "SLACK_WEBHOOK_URL"} & set(env)
    assert key not in json.dumps(env)
    assert env["HARNESS_ISOLATION"] == isolation


def test_generated_test_cannot_read_the_key_from_any_visible_process(attacked):
    report, _result, _run_dir, _sleep, key = attacked
    parent = report["parent_environ"]
    assert key not in parent["value"]
    assert report["environs"] and not [e for e in report["environs"] if key in e]


def test_detached_sleep_is_gone_after_the_command(attacked):
    _report, _result, _run_dir, sleep_arg, _key = attacked
    assert _gone(sleep_arg)


def test_evidence_reaches_the_run_dir_and_names_the_isolation(attacked, isolation):
    _report, _result, run_dir, _sleep, _key = attacked
    evidence = json.loads((run_dir / "evidence" / "e.json").read_text())
    assert evidence["isolation"] == isolation and evidence["tests"]


@pytest.mark.parametrize("isolation", ["bwrap"], indirect=True)
def test_bwrap_keeps_host_files_run_dir_and_loopback_out_of_reach(attacked):
    report, _result, run_dir, _sleep, key = attacked
    assert report["read_outside"] == {"ok": False, "value": "FileNotFoundError"}
    # The workspace's parents exist inside only as empty mount-point directories on a private
    # tmpfs: whatever the test wrote there vanished with the sandbox; the run's own log is untouched.
    assert (run_dir / "events.log").read_text() == ""
    assert sorted(p.name for p in run_dir.iterdir()) == ["events.log", "evidence", "workspace"]
    assert not report["connect"]["ok"]
    # pid 1 of its own namespace is bwrap's init: unreadable (it is not dumpable in the sandbox's
    # user namespace) or, where it is readable, the allowlisted environment only
    parent = report["parent_environ"]
    assert not parent["ok"] or key not in parent["value"]


@pytest.mark.parametrize("isolation", ["none"], indirect=True)
def test_without_bwrap_the_host_is_reachable_and_labelled_none(attacked):
    report, _result, _run_dir, _sleep, _key = attacked
    assert report["env"]["HARNESS_ISOLATION"] == "none (install bubblewrap)"
    assert report["read_outside"]["ok"]  # honest: without bwrap nothing stops a read
