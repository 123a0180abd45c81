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
