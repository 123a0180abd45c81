"""#19: the warm verification worker — same outcomes as a cold run, cold where it must, crash-safe."""

import json
import os
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from harness.speed.warm import workers as warm
from harness.utils.requirements_txt import requirement_names
from harness.verification.plugins import disable_args
from harness.verification.verifier import run_command

DEMO_WORKSPACE = Path(__file__).resolve().parent.parent / "runs" / "demo_todo" / "workspace"
INI = "[pytest]\nmarkers =\n    req(id): requirement\n"


def small_workspace(tmp_path, body, requirements=None):
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "pytest.ini").write_text(INI)
    (ws / "tests" / "test_a.py").write_text(body)
    if requirements is not None:
        (ws / "requirements.txt").write_text(requirements)
    return ws


def run(ws, tmp_path, name, command="python -m pytest -q tests", **kw):
    evidence = tmp_path / "run" / "evidence" / f"{name}.json"
    from harness.speed.runners import WarmRunner   # warm when HARNESS_WARM allows (the speed door's runner)

    return run_command(command, ws, task_id="T", evidence_path=evidence, reqs=["REQ-001"],
                       evidence_rel=f"evidence/{name}.json", **{"runner": WarmRunner(), **kw}), evidence


def outcomes(evidence: Path) -> dict:
    """What must not depend on the runner: per-test outcome, REQs, covered lines and checks; statuses."""
    doc = json.loads(evidence.read_text())
    tests = {node: {k: t.get(k) for k in ("outcome", "reqs", "lines", "checks", "fake_checks")}
             for node, t in doc["tests"].items()}
    reqs = {rid: (r["status"], r["counts"]) for rid, r in doc["requirements"].items()}
    return {"tests": tests, "requirements": reqs, "gate": doc["gate"].get("passed"),
            "isolation": doc.get("isolation"), "trusted": doc.get("trusted"), "forgery": doc.get("forgery")}


@pytest.fixture
def cold(monkeypatch):
    def _set(on: bool):
        monkeypatch.setenv(warm.ENV_WARM, "0" if on else "1")
    yield _set
    warm.stop_workers()


MIXED = '''import pytest


@pytest.mark.req("REQ-001")
def test_pass():
    assert 1 + 1 == 2


@pytest.mark.req("REQ-002")
def test_fail():
    assert [1, 2] == [1, 3]


@pytest.mark.skip(reason="not now")
def test_skip():
    pass


@pytest.fixture
def broken():
    raise RuntimeError("fixture")


def test_error(broken):
    pass
'''


KILLS_ITS_WORKER = '''import os
import signal
import sys
import time
from pathlib import Path


def test_kills_the_worker_once():
    marker = Path(os.environ["HARNESS_SHARED_DIR"], "kill_worker_once")  # the workspace is read-only
    if marker.exists():
        marker.unlink()
        os.kill(os.getppid(), signal.SIGKILL)
'''


HANGS_WITH_A_DETACHED_GRANDCHILD = '''import os
import subprocess
import sys
import time
from pathlib import Path


def test_hangs():  # the workspace in the sleeper's argv: _alive_sleepers tells it from another run's
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", os.getcwd()],
                             start_new_session=True)
    Path(os.environ["HARNESS_SHARED_DIR"], "grandchild.pid").write_text(str(child.pid))
    time.sleep(300)
'''


PROBES = {  # one small workspace (no requirements.txt: no third-party plugin), a command a file
    "pytest.ini": INI + "pythonpath = .\n",
    "tests/test_mixed.py": MIXED,
    "tests/test_dies.py": "import os\nimport signal\n\n\ndef test_dies():\n    os.kill(os.getpid(), signal.SIGKILL)\n",
    "tests/test_hangs.py": HANGS_WITH_A_DETACHED_GRANDCHILD,
    "tests/test_kills_its_worker.py": KILLS_ITS_WORKER,
    "tests/test_value.py": "from src.value import VALUE\n\n\ndef test_value():\n    assert VALUE == 1\n",
    "src/__init__.py": "",
    "src/value.py": "VALUE = 1\n",
}
WORKER_ENV = {"PYTHONDONTWRITEBYTECODE": "1", "HARNESS_RUN_ID": "", "PYTHONUNBUFFERED": "1"}  # run_command's


HANG_TIMEOUT_S = 1.5   # a warm run reaches the hang at once (its modules are loaded); `hung` checks that it did
# A cold run first starts an interpreter and pytest: it reached the hang in 0.6-1.15 s at load 4.6, with
# and without bubblewrap alike, and not within 1.5 s in a suite run at load 13 (`hung` False, cold only).
COLD_HANG_TIMEOUT_S = 5


def probe(name: str) -> str:
    return f"python -m pytest -q tests/test_{name}.py"


@pytest.fixture(scope="module")
def sequence(tmp_path_factory):
    """A copy of the demo workspace and a workspace of PROBES, and the commands every test below
    asserts on, run once per module in this order: .runs {name: (result, evidence path)},
    .sleepers (processes left after each timed-out run), .killed/.replaced (the worker SIGKILLed
    between commands, the one that served the next command). The probes' warm commands share one
    worker but after the two kills the tests make on purpose: 4 worker starts instead of 11."""
    from types import SimpleNamespace

    from helpers import warm_workers_stopped_after

    tmp = tmp_path_factory.mktemp("warm_vs_cold")
    demo = tmp / "demo"
    shutil.copytree(DEMO_WORKSPACE, demo)
    ws = tmp / "ws"
    for rel, text in PROBES.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text)
    done = SimpleNamespace(runs={}, sleepers={}, hung={}, workspace=ws)
    shared = tmp / "shared"  # what the probes leave for the next command (the workspace is read-only)
    shared.mkdir()

    def go(name, command, workspace=ws, **kw):
        done.runs[name] = run(workspace, tmp, name, command, **kw)
        return done.runs[name][0]

    with pytest.MonkeyPatch.context() as mp, warm_workers_stopped_after():
        mp.setenv("HARNESS_SHARED_DIR", str(shared))
        mp.setenv(warm.ENV_WARM, "0")
        go("demo_cold", "python -m pytest -q tests", demo)
        mp.setenv(warm.ENV_WARM, "1")
        go("demo_warm", "python -m pytest -q tests", demo)   # its worker's first command
        go("demo_again", "python -m pytest -q tests", demo)
        for mode in ("cold", "warm"):
            mp.setenv(warm.ENV_WARM, "0" if mode == "cold" else "1")
            go(f"mixed_{mode}", probe("mixed"))
            go(f"dies_{mode}", probe("dies"))
            started = time.time()
            go(f"hangs_{mode}", probe("hangs"), timeout_s=COLD_HANG_TIMEOUT_S if mode == "cold" else HANG_TIMEOUT_S)
            done.sleepers[mode] = _alive_sleepers(ws)
            pid_file = shared / "grandchild.pid"   # the test reached its hang before the timeout
            done.hung[mode] = pid_file.exists() and pid_file.stat().st_mtime >= started
            pid_file.unlink(missing_ok=True)
        go("hangs_co", "python -m pytest -q --co tests/test_hangs.py")
        # a workspace module changed between two children is imported anew
        go("value_one", probe("value"))
        (ws / "src" / "value.py").write_text("VALUE = 2\n")
        go("value_two", probe("value"))
        # the worker SIGKILLed between two commands is replaced
        (ws / "src" / "value.py").write_text("VALUE = 1\n")
        done.killed = warm.worker_for(ws, WORKER_ENV)
        os.kill(done.killed.proc.pid, signal.SIGKILL)
        done.killed.proc.wait(10)
        go("after_kill", probe("value"))
        done.replaced = warm.worker_for(ws, WORKER_ENV)
        # a child that kills its worker: retried cold, then a new worker
        (shared / "kill_worker_once").write_text("")
        go("crash", probe("kills_its_worker"))
        go("after_crash", probe("kills_its_worker"))
        # a requirement the worker did not import, or not a pytest run: cold
        (ws / "requirements.txt").write_text("fastapi>=0.110\nleftpad==1\n")
        go("by_requirement", probe("value"))
        (ws / "requirements.txt").write_text("fastapi>=0.110\npytest>=8\n")
        go("script", "python -c print(42)")
        go("pytest_again", probe("value"))
    return done


@pytest.mark.slow
def test_cold_and_warm_runs_of_the_demo_workspace_give_the_same_evidence(sequence):
    (cold_result, cold_doc), (warm_result, warm_doc), (again, again_doc) = (
        sequence.runs[name] for name in ("demo_cold", "demo_warm", "demo_again"))
    assert (cold_result.runner, warm_result.runner, again.runner) == ("cold", "warm", "warm")
    assert cold_result.command == warm_result.command == "python -m pytest -q tests"
    assert cold_result.status == warm_result.status == again.status
    assert cold_result.exit_code == warm_result.exit_code == again.exit_code
    assert outcomes(cold_doc) == outcomes(warm_doc) == outcomes(again_doc)
    assert outcomes(cold_doc)["tests"]  # the demo suite really ran
    assert warm_result.evidence_digest and warm_result.evidence_digest != "none"
    summary = [line for line in warm_result.stdout.splitlines() if " passed" in line]
    assert summary and "warning" not in summary[-1]  # no rewrite warning for preloaded modules


@pytest.mark.slow
def test_failing_suite_has_the_same_outcomes_exit_code_and_failure_type_warm_and_cold(sequence):
    (c, c_doc), (w, w_doc) = sequence.runs["mixed_cold"], sequence.runs["mixed_warm"]
    assert (c.runner, w.runner) == ("cold", "warm")
    assert (c.status, c.exit_code, c.failure_type) == (w.status, w.exit_code, w.failure_type) == (
        "FAIL", 1, c.failure_type)
    assert outcomes(c_doc) == outcomes(w_doc)
    assert len(outcomes(w_doc)["tests"]) == 4  # the probe's own tests only
    assert "assert [1, 2] == [1, 3]" in w.stdout  # assertion rewriting is on in the child


@pytest.mark.slow
def test_child_sees_a_fresh_workspace_module_each_time(sequence):
    """No leftover sys.modules between children: a changed workspace module is imported anew."""
    first, second = sequence.runs["value_one"][0], sequence.runs["value_two"][0]
    assert (first.runner, first.status) == ("warm", "PASS")
    assert (second.runner, second.status) == ("warm", "FAIL")


@pytest.mark.slow
def test_non_pytest_command_and_unknown_requirement_run_cold(sequence):
    by_requirement, script, pytest_run = (sequence.runs[n][0] for n in ("by_requirement", "script", "pytest_again"))
    assert (by_requirement.runner, by_requirement.status) == ("cold", "PASS")
    assert (script.runner, script.status, script.stdout.strip()) == ("cold", "PASS", "42")
    assert (pytest_run.runner, pytest_run.status) == ("warm", "PASS")


@pytest.mark.slow
def test_crashed_worker_is_replaced_and_its_command_retried_cold(sequence):
    crashed, doc = sequence.runs["crash"]
    assert (crashed.runner, crashed.status) == ("cold", "PASS")  # retried cold after the worker died
    assert [t["outcome"] for t in outcomes(doc)["tests"].values()] == ["passed"]
    after = sequence.runs["after_crash"][0]
    assert (after.runner, after.status) == ("warm", "PASS")  # a new worker took over


@pytest.mark.slow
def test_worker_killed_between_commands_is_replaced(sequence):
    before, after = sequence.runs["value_one"][0], sequence.runs["after_kill"][0]
    assert (before.runner, after.runner, after.status) == ("warm", "warm", "PASS")
    assert sequence.killed.proc.returncode is not None  # it really died
    assert sequence.replaced is not sequence.killed and sequence.replaced is not None


@pytest.mark.slow
def test_timeout_kills_the_child_and_what_it_detached_as_a_cold_run_does(sequence):
    c, w = sequence.runs["hangs_cold"][0], sequence.runs["hangs_warm"][0]
    assert sequence.sleepers == {"cold": [], "warm": []}
    assert sequence.hung == {"cold": True, "warm": True}   # each run timed out in the test, not before it
    import subprocess  # the filter sees a sleeper of this workspace while it lives

    # right after the fork /proc shows the parent's argv: wait until the sleeper says it runs
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; print('up', flush=True); time.sleep(300)",
                                os.path.realpath(sequence.workspace)], stdout=subprocess.PIPE, text=True)
    try:
        assert sleeper.stdout.readline() == "up\n"
        assert _alive_sleepers(sequence.workspace) == [sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()
        sleeper.stdout.close()
    assert (c.runner, w.runner) == ("cold", "warm")
    assert (c.timed_out, c.exit_code, c.status) == (w.timed_out, w.exit_code, w.status) == (True, None, "FAIL")
    assert c.failure_type == w.failure_type
    assert f"command timed out after {HANG_TIMEOUT_S}s" in w.stderr
    assert f"command timed out after {COLD_HANG_TIMEOUT_S}s" in c.stderr
    again = sequence.runs["hangs_co"][0]
    assert (again.runner, again.timed_out) == ("warm", False)  # the worker survived its child's timeout
    assert "1 test collected" in again.stdout


def _alive_sleepers(ws: Path) -> list[int]:
    """Processes still running `time.sleep(300)` for this workspace (bwrap: none is visible by pid;
    the workspace is bound at its own path, so the sleeper's argv names it: a sequence running at
    the same time in another xdist worker has its own workspace)."""
    mine = os.path.realpath(ws).encode()
    alive = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                cmd = Path(f"/proc/{name}/cmdline").read_bytes()
            except OSError:
                continue
            if b"time.sleep(300)" in cmd and mine in cmd:
                alive.append(int(name))
    return alive


@pytest.mark.slow
def test_a_child_killed_by_a_signal_reports_the_cold_exit_code(sequence):
    """bwrap reports a death by SIGKILL as 137 and Popen as -9: the warm child must say the same."""
    codes = {mode: (r.runner, r.exit_code, r.status) for mode in ("cold", "warm")
             for r in [sequence.runs[f"dies_{mode}"][0]]}
    assert codes["cold"][1] == codes["warm"][1] and codes["cold"][1] in (137, -9)
    assert (codes["cold"][0], codes["warm"][0]) == ("cold", "warm")


def test_requirement_names_are_normalised_and_options_ignored():
    text = "FastAPI[all]>=0.110\n# comment\n-r other.txt\npytest_timeout==2 ; python_version>'3'\n\nhttpx\n"
    assert requirement_names(text) == {"fastapi", "pytest-timeout", "httpx"}


@pytest.mark.parametrize("argv,ok", [
    (["{py}", "-m", "pytest", "-q"], True),
    (["{py}", "-c", "print(1)"], False),
    (["pytest", "-q"], False),  # command_argv resolves it to our interpreter first
    (["/usr/bin/python3", "-m", "pytest"], False),
])
def test_only_our_interpreter_running_pytest_is_eligible(tmp_path, argv, ok, monkeypatch):
    monkeypatch.delenv(warm.ENV_WARM, raising=False)
    assert warm.eligible([a.format(py=sys.executable) for a in argv], tmp_path) is ok


@pytest.mark.slow
def test_verification_json_keeps_the_real_command_with_the_runner_beside_it(todo_run):
    store, ctx = todo_run
    doc = json.loads(store.artifact_path(ctx.run_id, "verification").read_text())
    results = doc["results"]
    assert results and all(r["runner"] in ("warm", "cold") for r in results)
    assert all(r["command"].startswith(("python -m pytest", "pytest")) for r in results)
    assert not any(sys.executable in r["command"] or "--harness-evidence" in r["command"] for r in results)


@pytest.mark.parametrize("module", ["pytest_harness", "pytest_timeout"])
def test_preloaded_plugins_hold_no_assert_statement(module):
    """The worker's preloaded plugins skip assertion rewriting; with no assert that changes nothing."""
    import ast
    import importlib

    mod = importlib.import_module(module)
    files = (sorted(Path(mod.__file__).parent.glob("*.py")) if mod.__file__.endswith("__init__.py")
             else [Path(mod.__file__)])
    asserts = [f"{f.name}:{n.lineno}" for f in files for n in ast.walk(ast.parse(f.read_text()))
               if isinstance(n, ast.Assert)]
    assert files and asserts == []


@pytest.mark.slow
def test_workers_started_inside_a_test_end_with_it_and_earlier_ones_live_on(tmp_path, cold):
    """Regression (#19): in-process verifications left their idle workers alive until the session
    ended (15 seen at once); conftest's autouse fixture wraps every test in this helper."""
    from helpers import warm_workers_stopped_after

    cold(False)
    env = {"PYTHONDONTWRITEBYTECODE": "1", "HARNESS_RUN_ID": "", "PYTHONUNBUFFERED": "1"}
    earlier = warm.worker_for(small_workspace(tmp_path / "a", "def test_ok():\n    pass\n"), env)
    with warm_workers_stopped_after():
        ws = small_workspace(tmp_path / "b", "def test_ok():\n    pass\n")
        result, _ = run(ws, tmp_path, "inside")
        inside = warm.worker_for(ws, env)
        assert (result.runner, result.status) == ("warm", "PASS") and inside.alive()
    assert not inside.alive() and warm.worker_for(ws, env) is not inside
    assert earlier.alive() and warm.worker_for(earlier.workspace, env) is earlier


@pytest.mark.slow
def test_one_worker_answers_two_threads_each_with_its_own_reply(tmp_path):
    """WarmWorker.run serves one command at a time: each thread reads the reply to its own request
    (regression: the audit's lanes once shared one worker's socket from two threads)."""
    import tempfile
    import threading

    ws = small_workspace(tmp_path, "def test_ok():\n    pass\n\n\ndef test_bad():\n    assert False\n")
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    codes = {}

    def one(name: str) -> None:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"tests/test_a.py::{name}"]
            codes[name] = worker.run(argv, ws, {}, 60, out.fileno(), err.fileno(), ())["exit_code"]

    try:
        threads = [threading.Thread(target=one, args=(name,)) for name in ("test_ok", "test_bad")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        worker.stop()
    assert codes == {"test_ok": 0, "test_bad": 1}


TMP_PROBE = '''import os
import tempfile
from pathlib import Path


def test_tmpdir_of_the_previous_child_is_gone():
    record = Path(os.environ["HARNESS_SHARED_DIR"], "previous_tmpdir.txt")
    if record.exists():
        assert not os.path.exists(record.read_text()), "the previous child's TMPDIR is still there"
    left = Path(tempfile.gettempdir(), "left.bin")
    left.write_bytes(b"x" * 4096)
    record.write_text(str(left))
'''


@pytest.mark.slow
def test_a_childs_tmpdir_is_removed_before_the_next_request_is_served(tmp_path, monkeypatch):
    """Regression (#19): the ended child's TMPDIR is removed after its reply is sent (not before:
    3-16 ms off every command), and still before the worker serves the next command (#46: under
    bubblewrap each child's TMPDIR is its own fresh /tmp, gone with its mount namespace)."""
    import tempfile

    ws = small_workspace(tmp_path, TMP_PROBE)
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("HARNESS_SHARED_DIR", str(shared))
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    codes = []
    try:
        for _ in range(3):
            with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
                argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_a.py"]
                codes.append(worker.run(argv, ws, {}, 60, out.fileno(), err.fileno(), ())["exit_code"])
    finally:
        worker.stop()
    assert (shared / "previous_tmpdir.txt").exists()
    assert codes == [0, 0, 0]
