"""Carrying (pytest_harness/carry.py, read_set.py, harness/verification/carry_inputs.py): a whole-suite
session carries a test only when an earlier session passed it on inputs that are byte-identical now.

Every scenario runs real pytest sessions through the harness's `run_command` (the sandbox, the
plugin flags, the digest pipe) on a small real workspace: session A runs one test file, session B
the whole suite with A's document offered, as the last task of a build would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.verification.carry_inputs import CarryInput, carry_inputs, carry_note, task_range
from harness.verification.evidence_inputs import document_digest
from harness.verification.plugins import disable_args
from harness.verification.verifier import run_command
from pytest_harness import carry

RUN = "run_carry"
REQS = ["REQ-001", "REQ-002"]
FILES = {
    "pytest.ini": "[pytest]\nmarkers =\n    req(id): requirement\npythonpath = .\ntestpaths = tests\n",
    "requirements.txt": "",
    "src/__init__.py": "",
    "src/calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": ("import pytest\n\nfrom src.calc import add\n\n\n@pytest.mark.req('REQ-001')\n"
                           "def test_add():\n    assert add(1, 2) == 3\n"),
    "tests/test_other.py": ("import pytest\n\n\n@pytest.mark.req('REQ-002')\ndef test_other():\n"
                            "    import colorsys\n    assert colorsys.rgb_to_hsv(1.0, 0.0, 0.0)[0] == 0.0\n"),
}


def workspace(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    ws = tmp_path / "ws"
    for rel, text in {**FILES, **(extra or {})}.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text)
    return ws


def session(ws: Path, command: str, name: str, carry_from=()):
    """Run `command` as a verification of the run; (result, its evidence document)."""
    evidence = ws.parent / "run" / "evidence" / f"{name}.json"
    inputs = [CarryInput(ws.parent / "run" / r.evidence_path, r.evidence_digest, r.evidence_path) for r in carry_from]
    from harness.speed.runners import WarmRunner   # warm unless HARNESS_WARM=0 (the `cold` fixture)

    result = run_command(command, ws, task_id=name, evidence_path=evidence, reqs=REQS, run_id=RUN,
                         evidence_rel=f"evidence/{name}.json", carry=inputs, runner=WarmRunner())
    return result, json.loads(evidence.read_text())


def first_then_suite(ws: Path, first: str = "tests/test_calc.py", between=None):
    a, doc_a = session(ws, f"python -m pytest -q {first}", "TASK-001")
    assert a.status == "PASS" and doc_a["read_set"]["unsafe"] == []
    if between is not None:
        between(ws)
    b, doc_b = session(ws, "python -m pytest -q", "TASK-002", [a])
    return a, doc_a, b, doc_b


@pytest.fixture(autouse=True)
def cold(monkeypatch):
    monkeypatch.setenv("HARNESS_WARM", "0")


@pytest.mark.slow
def test_a_test_is_carried_when_nothing_it_read_changed(tmp_path):
    ws = workspace(tmp_path)
    # a new module nobody looked up does not stop the carry
    _a, doc_a, b, doc_b = first_then_suite(ws, between=lambda w: (w / "src" / "unrelated.py").write_text("X = 1\n"))
    entry = doc_b["tests"]["tests/test_calc.py::test_add"]
    assert entry["carried_from"] == "evidence/TASK-001.json"
    assert {k: v for k, v in entry.items() if k != "carried_from"} == doc_a["tests"]["tests/test_calc.py::test_add"]
    assert entry["lines"] == {"src/calc.py": [2]}  # the call's executed lines came along
    assert "carried_from" not in doc_b["tests"]["tests/test_other.py::test_other"]
    assert doc_b["tests"]["tests/test_other.py::test_other"]["outcome"] == "passed"
    assert doc_b["carried"] == {"count": 1, "from": ["evidence/TASK-001.json"], "refused": {}}
    assert doc_b["session"]["collected"] == 2 and doc_b["session"]["carried"] == 1
    assert doc_b["requirements"]["REQ-001"]["status"] == "verified" and doc_b["gate"]["passed"]
    assert "src/calc.py" in doc_b["read_set"]["files"]  # joined from A: B can be carried from in turn
    assert (b.status, b.tests, b.carried, b.carried_from) == ("PASS", 2, 1, ["evidence/TASK-001.json"])
    assert b.command == "python -m pytest -q"
    assert "harness: 1 test carried from evidence/TASK-001.json" in b.stdout


@pytest.mark.slow
def test_a_test_runs_again_when_a_file_it_imported_changed(tmp_path):
    ws = workspace(tmp_path)
    edit = lambda w: (w / "src" / "calc.py").write_text("def add(a, b):\n    return b + a\n")  # noqa: E731
    _a, _doc_a, b, doc_b = first_then_suite(ws, between=edit)
    assert "carried_from" not in doc_b["tests"]["tests/test_calc.py::test_add"]
    assert doc_b["tests"]["tests/test_calc.py::test_add"]["outcome"] == "passed"
    assert doc_b["carried"]["refused"] == {"evidence/TASK-001.json": "src/calc.py changed"}
    assert b.carried == 0 and b.status == "PASS"


@pytest.mark.slow
def test_a_test_runs_again_when_a_module_name_it_looked_up_gets_a_file(tmp_path):
    ws = workspace(tmp_path)
    shadow = lambda w: (w / "colorsys.py").write_text("def rgb_to_hsv(r, g, b):\n    return (0.0, 0.0, 0.0)\n")  # noqa: E731
    _a, doc_a, b, doc_b = first_then_suite(ws, first="tests/test_other.py", between=shadow)
    assert "colorsys" in doc_a["read_set"]["modules"]
    assert "carried_from" not in doc_b["tests"]["tests/test_other.py::test_other"]
    assert "module colorsys was looked up" in doc_b["carried"]["refused"]["evidence/TASK-001.json"]


@pytest.mark.slow
def test_a_test_runs_again_when_a_directory_its_code_listed_changes(tmp_path):
    lister = ("import os\nfrom pathlib import Path\n\n\ndef test_lists():\n"
              "    assert 'a.txt' in os.listdir(Path(__file__).parent.parent / 'data')\n")
    ws = workspace(tmp_path, {"tests/test_listing.py": lister, "data/a.txt": "a\n"})
    add = lambda w: (w / "data" / "b.py").write_text("")  # noqa: E731  (a .py file: not the data-file rule)
    _a, doc_a, _b, doc_b = first_then_suite(ws, first="tests/test_listing.py", between=add)
    assert list(doc_a["read_set"]["dirs"]) == ["data"]
    assert "carried_from" not in doc_b["tests"]["tests/test_listing.py::test_lists"]
    assert doc_b["carried"]["refused"] == {"evidence/TASK-001.json": "the listing of data changed"}


@pytest.mark.slow
def test_nothing_is_carried_from_a_session_that_spawned_a_process(tmp_path):
    spawner = ("import subprocess\nimport sys\n\n\ndef test_spawns():\n"
               "    assert subprocess.run([sys.executable, '-c', 'pass']).returncode == 0\n")
    ws = workspace(tmp_path, {"tests/test_spawn.py": spawner})
    a, doc_a = session(ws, "python -m pytest -q tests/test_calc.py tests/test_spawn.py", "TASK-001")
    assert a.status == "PASS" and "spawned a process (subprocess.Popen)" in doc_a["read_set"]["unsafe"]
    b, doc_b = session(ws, "python -m pytest -q", "TASK-002", [a])
    assert b.carried == 0 and not any("carried_from" in e for e in doc_b["tests"].values())
    assert "spawned a process" in doc_b["carried"]["refused"]["evidence/TASK-001.json"]


@pytest.mark.slow
def test_a_failed_test_is_never_carried(tmp_path):
    bad = "from src.calc import add\n\n\ndef test_bad():\n    assert add(1, 1) == 3\n"
    ws = workspace(tmp_path, {"tests/test_bad.py": bad})
    a, doc_a = session(ws, "python -m pytest -q tests/test_calc.py tests/test_bad.py", "TASK-001")
    assert a.status == "FAIL" and doc_a["tests"]["tests/test_bad.py::test_bad"]["outcome"] == "failed"
    _b, doc_b = session(ws, "python -m pytest -q", "TASK-002", [a])  # the plugin is offered a failing document
    assert doc_b["tests"]["tests/test_calc.py::test_add"]["carried_from"] == "evidence/TASK-001.json"
    assert doc_b["tests"]["tests/test_bad.py::test_bad"]["outcome"] == "failed"
    assert "carried_from" not in doc_b["tests"]["tests/test_bad.py::test_bad"]


def direct(ws: Path, out: Path, spec: str | None, command: str = "python -m pytest -q", **env) -> dict:
    """pytest with the harness's flags run straight (no sandbox), offered `spec`; its document."""
    from harness.verification.verifier import command_argv

    argv = command_argv(command, out, REQS, ws) + [f"--harness-run-id={RUN}"]
    argv += [f"--harness-carry={spec}"] if spec else []
    done = subprocess.run(argv, cwd=ws, env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1", **env},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout
    return json.loads(out.read_text())


@pytest.mark.slow
def test_an_edited_earlier_document_carries_nothing(tmp_path):
    ws = workspace(tmp_path)
    a, doc_a = session(ws, "python -m pytest -q tests/test_calc.py", "TASK-001")
    path = ws.parent / "run" / a.evidence_path
    doc_a["tests"]["tests/test_calc.py::test_add"]["duration_s"] = 0.0  # any edit breaks the digest
    path.write_text(json.dumps(doc_a))
    assert carry_inputs([a], ws.parent / "run") == []  # the harness does not offer it
    b, doc_b = session(ws, "python -m pytest -q", "TASK-002", [a])  # nor stage it when asked to
    assert b.carried == 0 and "carried" not in doc_b
    doc = direct(ws, tmp_path / "direct.json", f"{path}::{a.evidence_digest}::A")  # the plugin checks it too
    assert doc["carried"] == {"count": 0, "from": [],
                              "refused": {"A": "its bytes do not have the digest given (changed after its session)"}}
    assert doc["tests"]["tests/test_calc.py::test_add"]["outcome"] == "passed"


@pytest.mark.slow
def test_cold_and_warm_sessions_carry_the_same_tests(tmp_path, monkeypatch):
    from tests.helpers import warm_workers_stopped_after

    outcomes = {}
    for runner in ("cold", "warm"):
        monkeypatch.setenv("HARNESS_WARM", "1" if runner == "warm" else "0")
        with warm_workers_stopped_after():
            ws = workspace(tmp_path / runner)
            a, _doc_a, b, doc_b = first_then_suite(ws)
        assert (a.runner, b.runner) == (runner, runner)
        outcomes[runner] = ({n: (e["outcome"], e.get("carried_from")) for n, e in doc_b["tests"].items()},
                            {r: q["status"] for r, q in doc_b["requirements"].items()}, b.carried)
    assert outcomes["cold"] == outcomes["warm"]
    assert outcomes["warm"][2] == 1


@pytest.mark.slow
def test_harness_carry_0_records_nothing_and_carries_nothing(tmp_path):
    ws = workspace(tmp_path)
    direct(ws, tmp_path / "a.json", None, "python -m pytest -q tests/test_calc.py")
    spec = f"{tmp_path / 'a.json'}::{document_digest(tmp_path / 'a.json')}"
    on = direct(ws, tmp_path / "on.json", spec)
    assert on["carried"]["count"] == 1, on["carried"]  # the same offer is taken without HARNESS_CARRY=0
    off = direct(ws, tmp_path / "off.json", spec, HARNESS_CARRY="0")
    assert "read_set" not in off and "carried" not in off
    assert off["tests"]["tests/test_calc.py::test_add"]["outcome"] == "passed"


# ---- pure parts -----------------------------------------------------------------------------

def test_module_names_of_a_directory_entry_under_the_sys_path_roots():
    assert carry.module_names(".", "json.py", ["tests", "."]) == ["json"]
    assert carry.module_names("src", "pages.py", ["tests", "."]) == ["src.pages"]
    assert carry.module_names("src", "__init__.py", ["."]) == ["src"]
    assert carry.module_names(".", "newpkg", ["."]) == ["newpkg"]     # a directory: a namespace package
    assert carry.module_names("tests", "helpers.py", ["tests", "."]) == ["helpers", "tests.helpers"]
    assert carry.module_names(".", "notes.txt", ["."]) == []
    assert carry.module_names(".", "__pycache__", ["."]) == []
    assert carry.module_names("data", "x.py", ["src"]) == []


def test_the_carry_spec_names_path_digest_and_label():
    assert carry.parse_spec("/o/carry-1.json::sha256:ab::evidence/TASK-001-b001-1.json") == (
        "/o/carry-1.json", "sha256:ab", "evidence/TASK-001-b001-1.json")
    assert carry.parse_spec("old.json") == ("old.json", None, "old.json")


def test_a_document_without_a_digest_or_with_another_key_is_refused(tmp_path):
    assert carry.load_source(str(tmp_path / "x.json"), tmp_path).refused.startswith("no digest given")
    doc = {"complete": True, "trusted": True, "read_set": {"version": carry.read_set.VERSION, "unsafe": []},
           "carry_key": {"run_id": "a"}}
    common = dict(root=tmp_path, now={}, sys_path=[])
    assert carry.document_problem(doc, key={"run_id": "b"}, **common) == "different settings (run_id)"
    assert carry.document_problem({**doc, "complete": False}, key={"run_id": "a"}, **common) == "incomplete"
    assert carry.document_problem({**doc, "read_set": {**doc["read_set"], "unsafe": ["wrote src/x.py"]}},
                                  key={"run_id": "a"}, **common).endswith("wrote src/x.py")


def test_the_note_names_the_tasks_carried_from():
    from harness.models.results import VerificationResult

    r = VerificationResult(task_id="TASK-005", status="PASS", command="python -m pytest -q", exit_code=0, tests=25,
                           carried=19, carried_from=[f"evidence/TASK-00{n}-b00{n}-1.json" for n in (1, 2, 3, 4)])
    assert carry_note(r) == " (25 tests: 6 run, 19 carried from TASK-001..004)"
    assert task_range(["evidence/TASK-002-b002-1.json", "evidence/TASK-004-b004-1.json"]) == "TASK-002, TASK-004"
    assert carry_note(r.model_copy(update={"carried": 0})) == ""


def test_only_passing_documents_with_their_digest_are_offered(tmp_path, monkeypatch):
    from harness.models.results import VerificationResult

    (tmp_path / "evidence").mkdir()
    rows = []
    for n, status in ((1, "PASS"), (2, "FAIL"), (3, "PASS")):
        path = tmp_path / "evidence" / f"TASK-00{n}.json"
        path.write_text(json.dumps({"n": n}))
        rows.append(VerificationResult(task_id=f"TASK-00{n}", status=status, command="c", exit_code=0,
                                       evidence_path=f"evidence/TASK-00{n}.json", evidence_digest=document_digest(path)))
    rows.append(rows[0].model_copy(update={"task_id": "WORKSPACE", "reused_from": "evidence/TASK-001.json"}))
    assert [c.label for c in carry_inputs(rows, tmp_path)] == ["evidence/TASK-001.json", "evidence/TASK-003.json"]
    monkeypatch.setenv("HARNESS_CARRY", "0")
    assert carry_inputs(rows, tmp_path) == []


# ---- a real build -----------------------------------------------------------------------------

@pytest.mark.slow
def test_an_offline_todo_build_carries_nothing_into_the_session_that_serves_as_the_final_suite(todo_run):
    """The offline plans' only whole-suite session is the last task's, and since that session is the
    final suite when nothing changed between them (harness/speed/task_suite.py) it is offered nothing
    to carry: every test the final verdict reads ran in it. (Before, TASK-005 carried what the task
    sessions proved and a second whole suite ran beside it; carrying itself is covered by the
    workspace tests above.) The build completes and the audit plans against those tests."""
    from harness.audit.plan import make_plan
    from harness.models.enums import RunStatus

    store, ctx = todo_run
    run_dir = store.run_dir(ctx.run_id)
    results = ctx.state.verification_results
    last = next(r for r in results if r.task_id == "TASK-005")
    assert last.command == "python -m pytest -q" and last.status == "PASS"
    assert last.carried == 0 and last.carried_from == [] and last.tests > 0
    doc = json.loads((run_dir / last.evidence_path).read_text())
    assert not any(e.get("carried_from") for e in doc["tests"].values())
    final = next(r for r in results if r.task_id == "WORKSPACE")
    assert final.reused_from == last.evidence_path and final.tests == last.tests and final.carried == 0
    matrix = json.loads(store.artifact_path(ctx.run_id, "matrix").read_text())
    assert ctx.state.status == RunStatus.PASS and matrix["coverage_pct"] == 100.0
    assert not any("carried from" in line for row in matrix["requirements"] for line in row["evidence"])
    workspace_doc = json.loads(store.workspace_evidence(ctx.run_id).read_text())
    plan = make_plan(workspace_doc, store.workspace(ctx.run_id), max_mutants=4)
    planned = {n for tests in plan.tests.values() for n in tests}
    assert planned and planned <= set(doc["tests"])
    audit = json.loads(store.artifact_path(ctx.run_id, "audit").read_text())
    assert audit["complete"] and sum(r["killed"] for r in audit["requirements"].values()) > 0


def test_the_last_document_holding_a_test_supplies_it_and_only_suppliers_are_joined(tmp_path):
    from types import SimpleNamespace

    def doc(label_tests, module):
        return {"complete": True, "trusted": True, "carry_key": {"k": 1}, "snapshot": {"files": {}},
                "read_set": {"version": carry.read_set.VERSION, "unsafe": [], "files": {}, "sys_path": ["x"],
                             "modules": [module]},
                "tests": {n: {"outcome": outcome, "reqs": [], "failure": None} for n, outcome in label_tests}}
    sources = [carry.Source("A", doc([("t1", "passed"), ("t2", "passed")], "a")),
               carry.Source("B", doc([("t1", "passed"), ("t2", "failed")], "b")),
               carry.Source("C", doc([("t3", "passed")], "c"))]
    items = [SimpleNamespace(nodeid=n) for n in ("t1", "t2")]
    state = carry.select(items, lambda item: [], sources, key={"k": 1}, root=tmp_path, now={}, sys_path=["x"])
    assert {n: e["carried_from"] for n, e in state.carried.items()} == {"t1": "B", "t2": "A"}
    assert state.used == ["A", "B"]  # C offered nothing collected now
    own = {"files": {}, "dirs": {}, "metadata_dirs": {}, "globs": {}, "modules": ["own"]}
    assert carry.joined_read_set(own, sources, state.used)["modules"] == ["a", "b", "own"]
    assert carry.select(items, lambda item: [], sources, key={"k": 2}, root=tmp_path, now={},
                        sys_path=["x"]).carried == {}


@pytest.mark.slow
def test_without_evidence_the_plugin_installs_no_hook(tmp_path):
    """A user's own pytest run with the plugin but no --harness-evidence: no recorder, no audit hook."""
    ws = workspace(tmp_path, {"tests/conftest.py": (
        "def pytest_unconfigure(config):\n    from pytest_harness import read_set\n"
        "    print('HOOK', read_set._installed, read_set._active)\n")})
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", *disable_args("")],
                          cwd=ws, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "HOOK False None" in done.stdout, done.stdout


def test_the_plugin_report_says_which_tests_were_carried():
    from pytest_harness import report

    doc = {"requirements": {"REQ-001": {"status": "verified", "tests": ["t::a", "t::b"], "counts": {}, "weak": [],
                                        "weak_reasons": {}, "files": []}},
           "tests": {"t::a": {"outcome": "passed", "carried_from": "evidence/TASK-001.json"},
                     "t::b": {"outcome": "passed"}}, "session": {"collected": 2}, "gate": {"passed": True, "reasons": []}}
    text = report.render_markdown(doc)
    assert "t::a (passed, carried from evidence/TASK-001.json)" in text and "t::b (passed)" in text
