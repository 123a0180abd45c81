"""A crash of the app under a mutant is a 500 the generated tests check, not an error that ends them.

Stranger trial f: a hand-written spec with a shared record and a shared child record always failed
the mutation audit on "Every signed-in user sees all recipes" (0/3 killed, 4 invalid) although the
app was right over HTTP. The mutants of the sharing rule (e.g. `self.owned` negated in the query's
WHERE) made the list query crash; the generated client raised the app's exception into the test,
and the test read `.json()` of the list without checking its status — an error, not a check, so
never a kill. In an audit session the app's crash is already the 500 a server answers
(pytest_harness/audit_server_errors.py, applied here by a plugin the way the audit applies it);
the access tests now check each answer's status before reading its body, so the broken sharing
rule fails the test's own assert.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files

SPEC = '''title = "Brewers Board"
auth = true

[[entities]]
name = "recipe"
shared = true
fields = [{ name = "title", required = true }]
features = ["search"]

[[entities]]
name = "review"
parent = "recipe"
on_parent_delete = "cascade"
shared = true
fields = [{ name = "text", required = true }]
features = ["search"]
'''
OWNED = """(['"owner_id" = ?'], [owner_id]) if self.owned else ([], [])"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("shared")
    (root / "app.toml").write_text(SPEC, encoding="utf-8")
    return write_files(generate_files(load_spec_file(root / "app.toml")), root / "ws")


AS_IN_AN_AUDIT = """def pytest_collection_finish(session):
    from pytest_harness.audit_server_errors import answer_server_errors

    assert answer_server_errors()
"""


def _run(workspace, node):
    plugin = workspace.parent / "plugin"
    plugin.mkdir(exist_ok=True)
    (plugin / "as_in_an_audit.py").write_text(AS_IN_AN_AUDIT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(plugin)}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                           "-p", "as_in_an_audit", node], cwd=workspace, capture_output=True, text=True,
                          timeout=300, env=env)


@pytest.mark.parametrize("entity", ["recipe", "review"])
def test_a_crashing_sharing_rule_fails_the_shared_test_by_its_own_check_bug(workspace, tmp_path, entity):
    node = f"tests/test_api_{entity}.py::test_every_user_sees_shared_{entity}_records"
    assert _run(workspace, node).returncode == 0
    mutated = tmp_path / "ws"
    subprocess.run(["cp", "-r", str(workspace), str(mutated)], check=True)
    models = mutated / "src" / "models.py"
    text = models.read_text(encoding="utf-8")
    assert text.count(OWNED) == 1
    models.write_text(text.replace(OWNED, OWNED.replace("if self.owned", "if (not self.owned)")), encoding="utf-8")
    proc = _run(mutated, node)
    assert proc.returncode == 1
    failure = [line for line in proc.stdout.splitlines() if line.startswith("E   ")]
    assert failure and failure[0].lstrip("E ").startswith("assert 500 == 200"), proc.stdout[-2000:]
