"""The requirements' end-to-end tests read an answer's body only after checking its status.

The mutation audit counts a kill only when a test's own check fails (an AssertionError raised by
test code, pytest_harness/mutation_child.py); any other error is a crash, never a kill. The
generated tests/test_acceptance.py — one test per requirement — read bodies straight off the
request (`client.get(f"/api/todos/{id}").json()["status"]`): a mutant that made the app answer 404
or 500 there ended the test with a KeyError or a JSON decoding error, so the honest test could not
kill it, and a requirement whose mutants all broke that way could fail the audit with none judged
(last session's shared-record case, fixed then only for the access tests). Each such read is now
`read(response)`: the status is checked first, by the test itself.

Rejected on the way (recorded so nobody tries it again): making the generated client's responses
fail `.json()` of an unchecked error answer as an AssertionError raised in conftest.py. It turned
every such crash into a kill for hollow tests too (a conftest check survives the hollowing of the
test's own asserts): tests/test_mutation_crash_is_not_a_kill.py's hollowed Todo passed the audit.
The check has to be the test's own assert, which hollowing removes.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec import parse_request
from harness.offline.spec_file import load_spec_file
from helpers import write_files

TODO = "Build a Simple Todo App with add/list/complete"
READ = "    return _found(TABLE.get(db, item_id, None))\n"
LIST = "    return TABLE.rows(db, None, limit, offset)\n"

AS_IN_AN_AUDIT = """def pytest_collection_finish(session):
    from pytest_harness.audit_server_errors import answer_server_errors

    assert answer_server_errors()
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("todo")
    return write_files(generate_files(parse_request(TODO)), root / "ws")


def _mutated(workspace, tmp_path, old: str, new: str):
    copy = tmp_path / "ws"
    shutil.copytree(workspace, copy)
    api = copy / "src" / "api_todo.py"
    text = api.read_text(encoding="utf-8")
    assert text.count(old) == 1
    api.write_text(text.replace(old, new), encoding="utf-8")
    return copy


def _run(workspace, node):
    plugin = workspace.parent / "plugin"
    plugin.mkdir(exist_ok=True)
    (plugin / "as_in_an_audit.py").write_text(AS_IN_AN_AUDIT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(plugin)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                           "-p", "as_in_an_audit", node], cwd=workspace, capture_output=True, text=True,
                          timeout=300, env=env)
    errors = [line[4:].strip() for line in proc.stdout.splitlines() if line.startswith("E   ")]
    return proc.returncode, errors, proc.stdout


@pytest.mark.slow
def test_a_404_read_without_its_status_fails_the_test_by_a_check_bug(workspace, tmp_path):
    node = "tests/test_acceptance.py::test_req_003_complete"
    assert _run(workspace, node)[0] == 0
    broken = _mutated(workspace, tmp_path, READ, "    return _found(None)\n")
    code, errors, out = _run(broken, node)
    assert code == 1
    assert errors and errors[0].startswith("AssertionError: GET /api/todos/1 answered 404"), out[-2000:]
    assert "tests/test_acceptance.py:" in out   # raised by the test module itself


@pytest.mark.slow
def test_a_500_read_without_its_status_fails_the_test_by_a_check_bug(workspace, tmp_path):
    node = "tests/test_acceptance.py::test_req_001_create"
    broken = _mutated(workspace, tmp_path, LIST, "    raise RuntimeError('the list query broke')\n")
    code, errors, out = _run(broken, node)
    assert code == 1
    assert errors and errors[0].startswith("AssertionError: GET /api/todos answered 500"), out[-2000:]


CAPABILITIES = ("_create", "_list", "_complete", "_workflow", "_crud", "_relation", "_auth")


def unchecked_reads(source: str) -> list[str]:
    """`.json()` reads in the requirement tests of these capabilities, not on a response whose
    status an earlier assert of the same test looked at."""
    out = []
    for fn in ast.parse(source).body:
        if not isinstance(fn, ast.FunctionDef) or not fn.name.endswith(CAPABILITIES):
            continue
        checked: set[str] = set()
        for node in sorted((n for n in ast.walk(fn) if hasattr(n, "lineno")), key=lambda n: (n.lineno, n.col_offset)):
            if isinstance(node, ast.Assert):
                checked |= {n.value.id for n in ast.walk(node.test) if isinstance(n, ast.Attribute)
                            and n.attr == "status_code" and isinstance(n.value, ast.Name)}
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "json"
                    and not (isinstance(node.func.value, ast.Name) and node.func.value.id in checked)):
                out.append(f"{fn.name}: {ast.unparse(node)}")
    return out


SPECS = sorted((Path(__file__).parent.parent / "examples").glob("*.toml"))


@pytest.mark.parametrize("spec", [None, *SPECS], ids=lambda p: p.stem if p else "todo")
def test_every_requirement_test_checks_the_status_before_reading_the_body(spec):
    app = parse_request(TODO) if spec is None else load_spec_file(spec)
    source = generate_files(app)["tests/test_acceptance.py"]
    judged = [fn.name for fn in ast.parse(source).body if isinstance(fn, ast.FunctionDef) and fn.name.endswith(CAPABILITIES)]
    assert judged   # the check is not vacuous: the app has requirement tests of these capabilities
    assert unchecked_reads(source) == []
