"""#15 (a)-(c): evidence must exercise the code, cannot be forged by it, and goes stale on any change.

Each test takes a private copy of a real offline Todo build, tampers with its workspace the way a
careless or adversarial model could, and asserts that `pytest --harness-run` and
`builder trace --fail-under 100` both refuse it, naming the reason. `--harness-run` goes through
`pytest.main` in this interpreter (run_copies.harness_run_in_process); its verification commands
run in real sandboxed subprocesses as always, and test_trace runs it as a subprocess.

Tamperings that cannot mask each other share one copy, judged once per module (`judged`): weak
bodies planted on requirements whose tests are disjoint (REQ-004's tests share none with
REQ-001..003; REQ-002's and REQ-003's do, so they never share a copy; REQ-001 stays untouched in
every copy), and the two findings of the forgery scan, each asserted on its own file's line.
"""

import re
from dataclasses import dataclass

import pytest

import judged_copies
from judged_copies import Step, replace_bodies, req_line
from run_copies import cli, harness_run_in_process, row

FLIP_HOOK = '''

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
'''
ATEXIT_REWRITE = '''

import json as _json, os as _os, sys as _sys
_mod = __import__("ate" + "xit")  # obfuscated so that only the digest can catch it


def _forge():
    path = next(a for a in _sys.argv if a.startswith("--harness-evidence=")).split("=", 1)[1]
    doc = _json.load(open(path))
    for req in doc["requirements"].values():
        req["status"] = "verified"
    doc["gate"] = {"passed": True, "reasons": []}
    open(path, "w").write(_json.dumps(doc, sort_keys=True, indent=2) + "\\n")
    _os._exit(0)


getattr(_mod, "reg" + "ister")(_forge)
'''


def _judge(store, run_id, tmp_path, capsys):
    """(harness-run process, trace exit code, trace stdout)."""
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    code, out, _ = cli(capsys, "trace", run_id, "--runs-dir", str(store.base), "--fail-under", "100")
    return proc, code, out


# A test that really fails, for the forgers below to hide; planted in tests/, it makes
# `--harness-run` re-run only the whole suite (a changed src/ module would also re-run its task's
# verification and the runtime check).
A_REAL_FAILURE = "assert sum([1, 1]) == 3, 'a real failure for the forger to hide'"
ONLY_LITERALS = "assert 1 == 1\nx = [1]\nassert x == x\nassert 'a' in 'a'"
RUNS_NONE_OF_ITS_CODE = "value = {'done': True}\nassert value['done'] is True"
PROVE_NOTHING = {  # body -> the reason harness-run gives for it
    "assert True": "no real check (only tests/",
    ONLY_LITERALS: "no real check (only tests/",
    "pass": "no real check (no assert",
}
# copy -> {requirement: the body planted in each of its tests}
PLANTS = {"weak_a": {"REQ-002": "assert True", "REQ-004": "pass"},
          "weak_b": {"REQ-004": ONLY_LITERALS, "REQ-003": RUNS_NONE_OF_ITS_CODE}}


def _planted(name):
    def tamper(ws):
        for rid, body in PLANTS[name].items():
            assert replace_bodies(ws, rid, body)
    return tamper


def _forgery_scan(ws):
    """An outcome-flipping conftest hook hiding a really failing test, and an atexit import in src/."""
    assert replace_bodies(ws, "REQ-004", A_REAL_FAILURE)
    with (ws / "tests" / "conftest.py").open("a") as fh:
        fh.write(FLIP_HOOK)
    models = ws / "src" / "models.py"
    models.write_text(models.read_text() + "\nimport atexit\natexit.register(lambda: None)\n")


TAMPER = {"weak_a": _planted("weak_a"), "weak_b": _planted("weak_b"), "forgery_scan": _forgery_scan}


@dataclass
class Judged:
    harness: object  # the harness-run's CompletedProcess
    trace: Step      # `builder trace --fail-under 100` after it, with matrix.json then


@pytest.fixture(scope="module")
def judged(todo_run, tmp_path_factory):
    """judged(name): a private copy tampered by TAMPER[name], judged once per module (lazily)."""
    done: dict[str, Judged] = {}

    def _judged(name: str) -> Judged:
        if name not in done:
            base = tmp_path_factory.mktemp(name)
            store, run_id = judged_copies.private_copy(todo_run, base)
            TAMPER[name](store.workspace(run_id))
            proc = judged_copies.harness_run(run_id, store.base, base)
            code, out, err = judged_copies.cli("trace", run_id, "--runs-dir", store.base, "--fail-under", "100")
            done[name] = Judged(proc, Step(code, out, err, judged_copies.artifacts(store, run_id, "matrix")))
        return done[name]
    return _judged


@pytest.mark.slow
@pytest.mark.parametrize("copy, rid", [("weak_a", "REQ-002"), ("weak_b", "REQ-004"), ("weak_a", "REQ-004")])
def test_tests_that_prove_nothing_make_their_requirement_weak(judged, copy, rid):
    done = judged(copy)
    proc, line = done.harness, req_line(done.harness.stdout, rid)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert line.startswith(f"{rid}: FAIL") and PROVE_NOTHING[PLANTS[copy][rid]] in line, line
    assert done.trace.code == 1 and "weak:" in done.trace.out
    matrix = done.trace.artifacts["matrix"]
    assert row(matrix, rid).status == "FAIL"
    assert row(matrix, "REQ-001").status == "PASS"  # untouched requirements keep their evidence


@pytest.mark.slow
def test_tests_that_run_none_of_the_requirements_code_are_weak(judged):
    done = judged("weak_b")
    # REQ-003's implementation files (the generator's shared modules among them since #14)
    none_of = re.search(r"executed none of ([^;\n]*)", req_line(done.harness.stdout, "REQ-003"))
    assert done.harness.returncode == 1 and none_of, done.harness.stdout
    assert {"src/api_todo.py", "src/models.py"} <= set(none_of.group(1).split(", ")), none_of.group(1)
    assert done.trace.code == 1 and row(done.trace.artifacts["matrix"], "REQ-003").status == "FAIL"


@pytest.mark.slow
def test_outcome_flipping_conftest_hook_is_detected(judged):
    done = judged("forgery_scan")
    proc = done.harness
    assert proc.returncode != 0
    assert "evidence untrusted: tests/conftest.py:" in proc.stdout and "pytest_runtest_makereport" in proc.stdout
    assert "HARNESS RUN FAIL: 0/4" in proc.stdout
    assert done.trace.code == 1 and "pytest_runtest_makereport" in done.trace.out


@pytest.mark.slow
def test_atexit_rewrite_of_the_evidence_is_rejected_by_its_digest(fresh_todo_run, tmp_path, capsys):
    """The forger (in a test module: test files re-run only the whole suite) turns a failing
    session's document into a passing one after the session ended."""
    store, run_id = fresh_todo_run
    ws = store.workspace(run_id)
    assert replace_bodies(ws, "REQ-004", A_REAL_FAILURE)
    with (ws / "tests" / "test_pages.py").open("a") as fh:
        fh.write(ATEXIT_REWRITE)
    proc, code, out = _judge(store, run_id, tmp_path, capsys)
    assert proc.returncode != 0
    assert "evidence rejected: evidence/workspace.json changed after the pytest session ended" in proc.stdout
    doc = store.read_workspace_evidence(run_id)
    assert doc["gate"]["passed"] is True  # the forger did rewrite it; the digest is what caught it
    assert code == 1 and "evidence rejected" in out


@pytest.mark.slow
def test_atexit_handler_is_flagged_by_the_scan(judged):
    proc = judged("forgery_scan").harness
    assert proc.returncode != 0 and "evidence untrusted: src/models.py:" in proc.stdout
    assert "imports atexit" in proc.stdout and judged("forgery_scan").trace.code == 1


@pytest.mark.slow
def test_unowned_root_conftest_makes_every_requirement_stale(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    (store.workspace(run_id) / "conftest.py").write_text("# added after the review\n")
    code, out, _ = cli(capsys, "review", run_id, "--runs-dir", str(store.base))
    assert code == 1 and "conftest.py" in out
    code, out, _ = cli(capsys, "trace", run_id, "--runs-dir", str(store.base), "--fail-under", "100")
    assert code == 1 and "evidence stale: conftest.py" in out
    assert "coverage: 0/4" in out
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 1 and "conftest.py is not part of the build (no task owns it;" in proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize("rel, affected", [
    ("src/__init__.py", ["REQ-001", "REQ-002", "REQ-003", "REQ-004"]),
    ("pytest.ini", ["REQ-001", "REQ-002", "REQ-003", "REQ-004"]),
    ("src/pages.py", ["REQ-004"]),
])
def test_a_changed_file_makes_the_requirements_that_depend_on_it_stale(fresh_todo_run, capsys, rel, affected):
    store, run_id = fresh_todo_run
    path = store.workspace(run_id) / rel
    path.write_text(path.read_text() + "\n# edited after verification\n")
    code, _, _ = cli(capsys, "trace", run_id, "--runs-dir", str(store.base), "--fail-under", "100")
    matrix = store.read_artifact(run_id, "matrix")
    stale = sorted(r["id"] for r in matrix["requirements"]
                   if any(m.startswith(f"evidence stale: {rel}") for m in r["missing"]))
    assert code == 1 and stale == affected
