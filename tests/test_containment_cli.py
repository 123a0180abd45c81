"""#16 containment through the real `builder` CLI: the API key and a SIGKILLed builder.

Under bubblewrap and with HARNESS_SANDBOX=none (one LLM build each: the none build is also the
token-budget stop and resume): the key must be unreadable from any process a generated test can
see (its own environment, `/proc/<ppid>/environ`, every visible `/proc/*/environ`), and a builder
SIGKILLed during the runtime check must leave no server.
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
from fake_openai_server import FakeOpenAIServer, error
from test_llm_e2e import (PLAN, TASKS, TODO, USAGE, all_run_files, cli, events, file_map, llm_events, note_answer,
                          plan_answer, spec_answer, task_answer)

from harness.errors import EXIT_TEMPFAIL
from harness.models.enums import RunStatus, TaskStatus
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
    try:  # bwrap's init is not readable in the sandbox's user namespace
        parent = open(f"/proc/{os.getppid()}/environ", "rb").read().decode("latin-1")
    except OSError:
        parent = ""
    # the workspace is read-only: the report goes to the directory the test harness shares
    with open(os.path.join(os.environ["HARNESS_SHARED_DIR"], "snoop.json"), "w") as fh:
        json.dump({"env": dict(os.environ), "parent": parent, "environs": environs}, fh)
'''


@pytest.fixture(params=["bwrap", "none"])
def mode(request) -> dict[str, str]:
    if request.param == "bwrap" and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed (CI installs it)")
    return {"HARNESS_SANDBOX": "auto" if request.param == "bwrap" else "none"}


# The generated suite also checks its own environment (a file it wrote would not be part of the build).
ENV_CHECK = ('\n\n@pytest.mark.req("REQ-001")\ndef test_environment_has_no_key():\n'
             '    import os\n'
             '    assert "PATH" in os.environ\n'
             '    assert not [k for k in os.environ if k.startswith("OPENAI_") or os.environ[k].startswith("sk-")]\n')


def _key_is_unreadable(run_dir: Path, key: str, output: str, label: str) -> None:
    """The key is in no file of the run and none of the builder's output, and no process the generated
    test saw (its environment, its parent's, every visible /proc/*/environ) held it."""
    assert "test_environment_has_no_key" in (run_dir / "workspace" / "tests/test_models.py").read_text()
    files = all_run_files(run_dir)
    assert len(files) > 30
    secret = key.removeprefix("sk-test-").encode()
    for path in files:
        data = path.read_bytes()
        assert key.encode() not in data and secret not in data, path
    assert secret.decode() not in output

    snoop = json.loads((run_dir.parent.parent / "shared" / "snoop.json").read_text())
    assert "OPENAI_API_KEY" not in snoop["env"] and key not in json.dumps(snoop["env"])
    assert key not in snoop["parent"]
    holders = [pid for pid, env in snoop["environs"].items() if key in env]
    assert snoop["environs"] and not holders, [Path(f"/proc/{pid}/cmdline").read_bytes()[:200] for pid in holders]
    assert f"isolation: {label}" in output
    review = json.loads((run_dir / "review.json").read_text())
    assert review["isolation"] == label


def _shared(tmp_path: Path) -> Path:
    """<tmp>/shared beside <tmp>/runs: where the snooping test leaves its report (HARNESS_SHARED_DIR)."""
    (tmp_path / "shared").mkdir(exist_ok=True)
    return tmp_path / "shared"


def _snooping_models_test() -> str:
    models_test = file_map("TASK-001")["tests/test_models.py"]
    assert "import pytest" in models_test
    return models_test + ENV_CHECK + SNOOP


@pytest.mark.slow
def test_cli_build_key_is_unreadable_from_every_process_a_generated_test_sees(tmp_path):
    """One real LLM `builder new` under bubblewrap proves containment and test_llm_e2e's scenarios 1
    and 4: valid spec, plan and working file maps, the first request rate limited with Retry-After ->
    BUILD COMPLETE; every model call is an llm event with model and tokens; the API key is in no file
    of the run (the environment dump included) and not readable from any process a generated test
    sees. It keeps the mutation audit (the build a user gets by default, as the scenario-1 build had).
    Without bubblewrap (HARNESS_SANDBOX=none) the same containment is the next test's build."""
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed (CI installs it)")
    key = f"sk-test-{uuid.uuid4().hex}"  # unique: other builds on this host may run with a shared test key
    with FakeOpenAIServer([error(429, "slow down", retry_after=0), spec_answer(), plan_answer(),
                           task_answer("TASK-001", **{"tests/test_models.py": _snooping_models_test()}),
                           *[task_answer(t) for t in TASKS[1:]], note_answer()]) as server:
        proc = cli(["new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", "snoop"], tmp_path,
                   OPENAI_API_KEY=key, OPENAI_BASE_URL=server.url, OPENAI_MODEL="fake-model-1", HARNESS_SANDBOX="auto",
                   HARNESS_SHARED_DIR=str(_shared(tmp_path)))
        requests = list(server.requests)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "BUILD COMPLETE" in proc.stdout
    assert len(requests) == 1 + 2 + len(TASKS) + 1 and server.pending == 0   # 429, spec, plan, tasks, note
    assert all(r.headers["authorization"] == f"Bearer {key}" for r in requests)  # the key is still used
    assert all(r.body["model"] == "fake-model-1" for r in requests)
    assert requests[0].body == requests[1].body        # the rate-limited request was retried as is

    store = RunStore(tmp_path / "runs")
    state = store.load("snoop")
    assert state.status == RunStatus.PASS and state.plan.source == "llm"
    evs = events(store, "snoop")
    calls = llm_events(evs)
    assert [e["agent"] for e in calls] == ["spec_agent", "planner", *["builder"] * len(TASKS), "reviewer"]
    assert [e["task_id"] for e in calls if e["agent"] == "builder"] == TASKS
    assert all(e["model"] == "fake-model-1" and e["status"] == "ok" for e in calls)
    assert [e["tokens"] for e in calls] == [100] * (2 + len(TASKS)) + [None]   # the note had no usage
    assert state.llm_calls == len(calls) and state.llm_tokens == 100 * (2 + len(TASKS))
    assert sum(e["tokens"] or 0 for e in evs) == state.llm_tokens      # counted once, on the llm events
    assert [e["tool"] for e in evs if e["stage"] == "build" and e["status"] == "completed"] == ["llm"] * len(TASKS)
    assert not [e for e in evs if e["status"] == "fallback"]
    _key_is_unreadable(store.run_dir("snoop"), key, proc.stdout + proc.stderr, "bubblewrap")
    assert store.read_audit("snoop") is not None


@pytest.mark.slow
def test_token_budget_crossed_mid_build_exits_75_and_resume_finishes_without_rebuilding(tmp_path):
    """test_llm_e2e's scenario 6 through the real CLI, and the containment above without bubblewrap
    (HARNESS_SANDBOX=none; they were two whole LLM builds): `builder new --max-tokens 450` stops with
    exit 75 after TASK-003's answer, `builder resume --max-tokens 10000 --no-audit` finishes without
    rebuilding TASK-001..003; the key is unreadable from every process a generated test sees (the
    last whole-suite session runs beside the runtime check's server) and in no file of the run."""
    key = f"sk-test-{uuid.uuid4().hex}"
    runs = tmp_path / "runs"
    mode = {"HARNESS_SANDBOX": "none", "HARNESS_SHARED_DIR": str(_shared(tmp_path))}
    with FakeOpenAIServer([spec_answer(), plan_answer(),
                           task_answer("TASK-001", **{"tests/test_models.py": _snooping_models_test()}),
                           *[task_answer(t) for t in TASKS[1:]], note_answer(USAGE)]) as server:
        env = {"OPENAI_API_KEY": key, "OPENAI_BASE_URL": server.url, **mode}
        first = cli(["new", TODO, "--runs-dir", str(runs), "--run-id", "budget", "--max-tokens", "450"], tmp_path, **env)
        assert first.returncode == EXIT_TEMPFAIL, first.stdout[-2000:] + first.stderr[-2000:]
        assert "budget exceeded: 500 tokens (max 450)" in first.stderr
        assert "builder resume budget" in first.stderr and "Traceback" not in first.stderr
        assert len(server.requests) == 5          # spec, plan, TASK-001..003; TASK-004 was never asked

        store = RunStore(runs)
        state, _ = store.resume("budget")
        assert state.status == RunStatus.FAIL and state.error.startswith("budget exceeded: ")
        assert (state.llm_calls, state.llm_tokens) == (5, 500)
        assert [state.task_results[t] for t in TASKS[:3]] == [TaskStatus.COMPLETED] * 3
        assert state.task_results["TASK-004"] != TaskStatus.COMPLETED
        done_files = [store.workspace("budget") / p for t in PLAN.tasks[:3] for p in t.files_touched]
        stamps = {p: p.stat().st_mtime_ns for p in done_files}

        second = cli(["resume", "budget", "--runs-dir", str(runs), "--max-tokens", "10000", "--no-audit"], tmp_path,
                     **env)  # about the token budget and resume, not the audit
        assert second.returncode == 0, second.stdout[-2000:] + second.stderr[-2000:]
        assert "BUILD COMPLETE" in second.stdout
        assert len(server.requests) == 5 + 3      # TASK-004, TASK-005, the reviewer note
        assert all(r.headers["authorization"] == f"Bearer {key}" for r in server.requests)

    state = store.load("budget")
    assert state.status == RunStatus.PASS and (state.llm_calls, state.llm_tokens) == (8, 800)
    assert {p: p.stat().st_mtime_ns for p in done_files} == stamps
    evs = events(store, "budget")
    resumed_at = max(i for i, e in enumerate(evs) if e["stage"] == "run" and e["status"] == "resumed")
    rebuilt = [e["task_id"] for e in evs[resumed_at:] if e["stage"] == "build" and e["status"] == "started"]
    assert rebuilt == ["TASK-004", "TASK-005"]
    assert sum(e["tokens"] or 0 for e in llm_events(evs)) == 800
    output = first.stdout + first.stderr + second.stdout + second.stderr
    _key_is_unreadable(store.run_dir("budget"), key, output, "none (install bubblewrap)")


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
def test_sigkill_of_builder_at_the_runtime_check_leaves_no_server_and_resume_completes(tmp_path, mode,
                                                                                      crashed_todo_run):
    """The builder killed is a real `builder resume` of a private copy of the shared crashed run
    (conftest.py: `builder new` SIGKILLed after TASK-002), which builds TASK-003..005 and starts the
    runtime check in this mode; a second `builder resume` then finishes the run."""
    runs = tmp_path / "runs"
    shutil.copytree(crashed_todo_run.run, runs / "crashy")
    scope = scope_of(runs / "crashy" / "workspace")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "HARNESS_"))}
    script = Path(sys.executable).parent / "builder"
    argv = [str(script)] if script.is_file() else [sys.executable, "-m", "harness.cli"]
    builder = subprocess.Popen([*argv, "resume", "crashy", "--runs-dir", str(runs)], cwd=tmp_path,
                               env={**env, **mode}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _wait_for(lambda: _scoped(scope, b"uvicorn"), within_s=240), "the runtime check never started"
    finally:
        builder.send_signal(signal.SIGKILL)
        builder.wait()
    assert _wait_for(lambda: not _scoped(scope), within_s=5), f"left running: {_scoped(scope)}"
    resumed = cli(["resume", "crashy", "--runs-dir", str(runs), "--no-audit"], tmp_path, **mode)  # not about the audit
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert RunStore(runs).load("crashy").runtime.status == "PASS"
    assert not _scoped(scope)
