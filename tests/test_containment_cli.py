"""#16 containment through the real `builder` CLI: the API key and a SIGKILLed builder.

Both run under bubblewrap and with HARNESS_SANDBOX=none: the key must be unreadable from any
process a generated test can see (its own environment, `/proc/<ppid>/environ`, every visible
`/proc/*/environ`), and a builder SIGKILLed during the runtime check must leave no server.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer
from test_llm_e2e import TASKS, TODO, cli, file_map, note_answer, plan_answer, spec_answer, task_answer

from harness.sandbox.procs import ENV_SCOPE, scope_of
from harness.state.store import RunStore

pytestmark = pytest.mark.slow

SNOOP = '''


@pytest.mark.req("REQ-001")
def test_snoop_for_the_key():
    import json, os
    environs = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                environs[name] = open(f"/proc/{name}/environ", "rb").read().decode("latin-1")
            except OSError:
                pass
    parent = open(f"/proc/{os.getppid()}/environ", "rb").read().decode("latin-1")
    os.makedirs("__pycache__", exist_ok=True)  # outside the evidence snapshot: no task owns snoop.json
    with open("__pycache__/snoop.json", "w") as fh:
        json.dump({"env": dict(os.environ), "parent": parent, "environs": environs}, fh)
'''


@pytest.fixture(params=["bwrap", "none"])
def mode(request) -> dict[str, str]:
    if request.param == "bwrap" and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed (CI installs it)")
    return {"HARNESS_SANDBOX": "auto" if request.param == "bwrap" else "none"}


@pytest.mark.slow
def test_cli_build_key_is_unreadable_from_every_process_a_generated_test_sees(tmp_path, mode):
    key = f"sk-test-{uuid.uuid4().hex}"  # unique: other builds on this host may run with a shared test key
    models_test = file_map("TASK-001")["tests/test_models.py"]
    with FakeOpenAIServer([spec_answer(), plan_answer(),
                           task_answer("TASK-001", **{"tests/test_models.py": models_test + SNOOP}),
                           *[task_answer(t) for t in TASKS[1:]], note_answer()]) as server:
        proc = cli(["new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", "snoop", "--no-audit"], tmp_path,
                   OPENAI_API_KEY=key, OPENAI_BASE_URL=server.url, **mode)
        assert all(r.headers["authorization"] == f"Bearer {key}" for r in server.requests)  # key still used
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    snoop = json.loads((tmp_path / "runs" / "snoop" / "workspace" / "__pycache__" / "snoop.json").read_text())
    assert "OPENAI_API_KEY" not in snoop["env"] and key not in json.dumps(snoop["env"])
    assert key not in snoop["parent"]
    holders = [pid for pid, env in snoop["environs"].items() if key in env]
    assert snoop["environs"] and not holders, [Path(f"/proc/{pid}/cmdline").read_bytes()[:200] for pid in holders]
    label = "bubblewrap" if mode["HARNESS_SANDBOX"] == "auto" else "none (install bubblewrap)"
    assert f"isolation: {label}" in proc.stdout
    review = json.loads((tmp_path / "runs" / "snoop" / "review.json").read_text())
    assert review["isolation"] == label


def _scoped(scope: str, needle: bytes = b"") -> list[int]:
    """Live pids whose start-up environment carries the workspace's sweep scope."""
    marker = f"{ENV_SCOPE}={scope}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            env = Path(f"/proc/{name}/environ").read_bytes().split(b"\0")
            cmd = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in env and needle in cmd and state != "Z":
            found.append(int(name))
    return found


def _wait_for(predicate, within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.slow
def test_sigkill_of_builder_at_the_runtime_check_leaves_no_server_and_resume_completes(tmp_path, mode):
    runs = tmp_path / "runs"
    scope = scope_of(runs / "killed" / "workspace")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "HARNESS_"))}
    script = Path(sys.executable).parent / "builder"
    argv = [str(script)] if script.is_file() else [sys.executable, "-m", "harness.cli"]
    builder = subprocess.Popen([*argv, "new", TODO, "--runs-dir", str(runs), "--run-id", "killed"], cwd=tmp_path,
                               env={**env, **mode}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _wait_for(lambda: _scoped(scope, b"uvicorn"), within_s=240), "the runtime check never started"
    finally:
        builder.send_signal(signal.SIGKILL)
        builder.wait()
    assert _wait_for(lambda: not _scoped(scope), within_s=5), f"left running: {_scoped(scope)}"
    resumed = cli(["resume", "killed", "--runs-dir", str(runs), "--no-audit"], tmp_path, **mode)  # not about the audit
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert RunStore(runs).load("killed").runtime.status == "PASS"
    assert not _scoped(scope)
