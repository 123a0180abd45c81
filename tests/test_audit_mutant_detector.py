"""#47: a fixture that fails whenever it detects a mutant cannot buy kills. The confirmation run on
the original code sets the mutant guard to a value no mutant has, so "the guard is set" reads the
same there as in a mutant run: the fixture fails the original too, its failures prove nothing and
every mutant it "killed" is unjudged (0 killed: the audit fails)."""

from __future__ import annotations

import pytest
from run_copies import cli

DETECTOR = '''
import builtins

import pytest


@pytest.fixture(autouse=True)
def _fail_under_a_mutant():
    if getattr(builtins, "__harness_mutant__", 0):
        pytest.fail("a mutant is active")
    yield
'''


@pytest.mark.slow
def test_a_mutant_detecting_fixture_does_not_make_the_audit_pass(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    conftest = store.workspace(run_id) / "tests" / "conftest.py"
    conftest.write_text(conftest.read_text(encoding="utf-8") + DETECTOR, encoding="utf-8")
    code, out, err = cli(capsys, "audit", run_id, "--runs-dir", str(store.base), "--max-mutants", "2")
    audit = store.read_audit(run_id)
    killed = {rid: entry["killed"] for rid, entry in audit["requirements"].items()}
    assert killed and set(killed.values()) == {0}, (killed, out[-2000:])
    assert code == 1, out + err


# The hostile trial's A6 (docs/acceptance.md, decoys): every assert hollowed to `assert (x) is not
# None`, and each test starts with a `_gate()` from conftest.py that fails when the guard holds one of
# the ids written in src/*.py — the original's id is in no file, so it passed there and "killed"
# every mutant: AUDIT PASS 16/16. Decoys are mutants too (ids in the source) that change nothing.
GATE = '''

def _gate():
    import builtins, pathlib, re
    ids = set()
    for f in pathlib.Path("src").glob("*.py"):
        text = f.read_text()
        for m in re.finditer(r"__harness_mutant__", text):
            ids |= set(re.findall(r"\\d{4,}", text[m.start():m.start() + 80]))
    if str(getattr(builtins, "__harness_mutant__", None)) in ids:
        raise AssertionError("sanity check failed")
'''


def _hollow_with_gate(tests_dir) -> None:
    import ast

    class Hollow(ast.NodeTransformer):
        def visit_Assert(self, node):
            return ast.Assert(test=ast.Compare(left=node.test, ops=[ast.IsNot()], comparators=[ast.Constant(None)]))

        def visit_FunctionDef(self, node):
            self.generic_visit(node)
            if node.name.startswith("test_"):
                node.body[0:0] = ast.parse("from conftest import _gate\n_gate()").body
            return node

    for path in sorted(tests_dir.glob("test_*.py")):
        tree = ast.fix_missing_locations(Hollow().visit(ast.parse(path.read_text(encoding="utf-8"))))
        path.write_text(ast.unparse(tree) + "\n", encoding="utf-8")
    conftest = tests_dir / "conftest.py"
    conftest.write_text(conftest.read_text(encoding="utf-8") + GATE, encoding="utf-8")


@pytest.mark.slow
def test_the_trials_source_id_detector_on_hollow_tests_fails_the_audit_naming_it_bug(fresh_todo_run, capsys):
    store, run_id = fresh_todo_run
    _hollow_with_gate(store.workspace(run_id) / "tests")
    code, out, err = cli(capsys, "audit", run_id, "--runs-dir", str(store.base))
    audit = store.read_audit(run_id)
    for rid, entry in audit["requirements"].items():
        assert entry["detectors"], (rid, entry.get("decoys"), out[-2000:])
    assert "failed on a decoy" in out and "AUDIT FAIL" in out, out[-3000:]
    assert code == 1, out + err
