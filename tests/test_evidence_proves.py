"""#15 (a)-(c): evidence must exercise the code, cannot be forged by it, and goes stale on any change.

Each test takes a private copy of a real offline Todo build, tampers with its workspace the way a
careless or adversarial model could, and asserts that `pytest --harness-run` and
`builder trace --fail-under 100` both refuse it, naming the reason. `--harness-run` goes through
`pytest.main` in this interpreter (run_copies.harness_run_in_process); its verification commands
run in real sandboxed subprocesses as always, and test_trace runs it as a subprocess.
"""

import ast
import re

import pytest

from run_copies import cli, harness_run_in_process, row

XSS_REGRESSION = ("from html import escape\n", "escape = str  # regression: values no longer escaped\n")
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


def _marked(node: ast.FunctionDef, rid: str) -> bool:
    return any(rid in ast.unparse(d) for d in node.decorator_list)


def replace_bodies(workspace, rid: str, body: str) -> list[str]:
    """Replace the body of every test marked `rid` with `body`; the nodeids changed."""
    changed = []
    for path in sorted((workspace / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and _marked(node, rid):
                node.body = ast.parse(body).body
                changed.append(f"{path.relative_to(workspace).as_posix()}::{node.name}")
        path.write_text(ast.unparse(tree) + "\n")
    return changed


def _judge(store, run_id, tmp_path, capsys):
    """(harness-run process, trace exit code, trace stdout)."""
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    code, out, _ = cli(capsys, "trace", run_id, "--runs-dir", str(store.base), "--fail-under", "100")
    return proc, code, out


@pytest.mark.slow
@pytest.mark.parametrize("body, reason", [
    ("assert True", "no real check (only tests/"),
    ("assert 1 == 1\nx = [1]\nassert x == x\nassert 'a' in 'a'", "no real check (only tests/"),
    ("pass", "no real check (no assert"),
])
def test_tests_that_prove_nothing_make_their_requirement_weak(fresh_todo_run, tmp_path, capsys, body, reason):
    store, run_id = fresh_todo_run
    assert replace_bodies(store.workspace(run_id), "REQ-002", body)
    proc, code, out = _judge(store, run_id, tmp_path, capsys)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "REQ-002: FAIL" in proc.stdout and reason in proc.stdout
    assert code == 1 and "weak:" in out
    matrix = store.read_artifact(run_id, "matrix")
    assert row(matrix, "REQ-002").status == "FAIL"
    assert row(matrix, "REQ-001").status == "PASS"  # untouched requirements keep their evidence


@pytest.mark.slow
def test_tests_that_run_none_of_the_requirements_code_are_weak(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    replace_bodies(store.workspace(run_id), "REQ-003", "value = {'done': True}\nassert value['done'] is True")
    proc, code, out = _judge(store, run_id, tmp_path, capsys)
    # REQ-003's implementation files (the generator's shared modules among them since #14)
    none_of = re.search(r"executed none of ([^\n]*)", proc.stdout)
    assert proc.returncode == 1 and none_of, proc.stdout
    assert {"src/api_todo.py", "src/models.py"} <= set(none_of.group(1).split(", ")), none_of.group(1)
    assert code == 1


@pytest.mark.slow
def test_outcome_flipping_conftest_hook_is_detected(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    ws = store.workspace(run_id)
    pages = ws / "src" / "pages.py"
    pages.write_text(pages.read_text().replace(*XSS_REGRESSION))
    with (ws / "tests" / "conftest.py").open("a") as fh:
        fh.write(FLIP_HOOK)
    proc, code, out = _judge(store, run_id, tmp_path, capsys)
    assert proc.returncode != 0
    assert "evidence untrusted: tests/conftest.py:" in proc.stdout and "pytest_runtest_makereport" in proc.stdout
    assert "HARNESS RUN FAIL: 0/4" in proc.stdout
    assert code == 1 and "pytest_runtest_makereport" in out


@pytest.mark.slow
def test_atexit_rewrite_of_the_evidence_is_rejected_by_its_digest(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    ws = store.workspace(run_id)
    for module in (ws / "src").glob("*.py"):   # pages, page_parts and ui escape since #14
        module.write_text(module.read_text().replace(*XSS_REGRESSION))
    with (ws / "tests" / "conftest.py").open("a") as fh:
        fh.write(ATEXIT_REWRITE)
    proc, code, out = _judge(store, run_id, tmp_path, capsys)
    assert proc.returncode != 0
    assert "evidence rejected: evidence/workspace.json changed after the pytest session ended" in proc.stdout
    doc = store.read_workspace_evidence(run_id)
    assert doc["gate"]["passed"] is True  # the forger did rewrite it; the digest is what caught it
    assert code == 1 and "evidence rejected" in out


@pytest.mark.slow
def test_atexit_handler_is_flagged_by_the_scan(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    src = store.workspace(run_id) / "src" / "models.py"
    src.write_text(src.read_text() + "\nimport atexit\natexit.register(lambda: None)\n")
    proc, code, out = _judge(store, run_id, tmp_path, capsys)
    assert proc.returncode != 0 and "evidence untrusted: src/models.py:" in proc.stdout
    assert "imports atexit" in proc.stdout and code == 1


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
    assert proc.returncode == 1 and "conftest.py is not part of the build (no task owns it)" in proc.stdout


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
