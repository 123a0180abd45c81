"""Tampered private copies of the shared Todo run, judged once and read by several tests (#19).

A module- or session-scoped fixture cannot use `capsys`; these helpers run the same in-process
calls as run_copies.cli / run_copies.harness_run_in_process with stdout and stderr redirected to
strings instead, and record what each step printed and wrote *at that step* (a later step of the
same copy rewrites audit.json, review.json and matrix.json), so every test asserts its fact on
evidence produced once and nothing a test does can change what another reads.
"""

from __future__ import annotations

import ast
import io
import json
import os
import shutil
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from harness.state.store import RunStore

# Runs the requirement's code, then checks only an unrelated endpoint: it cannot see a broken todo.
# Its database is a fresh temporary file, as a test must write only outside the workspace: on the
# default path (app.db in the workspace) the writes failed under bubblewrap (read-only workspace,
# the 500s ignored) and, without bubblewrap, changed the workspace, which voids every result of the
# re-verification ("the workspace changed while its code ran (., app.db)").
BLIND_BODY = """
import os
import tempfile
os.environ['APP_DB_PATH'] = os.path.join(tempfile.mkdtemp(), 'app.db')
from fastapi.testclient import TestClient
from src.main import app
client = TestClient(app, raise_server_exceptions=False)
client.post('/api/todos', json={'title': 'x'})
client.post('/api/todos/1/complete')
assert client.get('/health').status_code == 200
"""


def _marked(node: ast.FunctionDef, rid: str) -> bool:
    return any(rid in ast.unparse(d) for d in node.decorator_list)


def edit_marked_tests(workspace, rid: str, edit) -> list[str]:
    """Call `edit(node)` on every test function marked `rid` and write the files back; the node ids."""
    changed = []
    for path in sorted((workspace / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and _marked(node, rid):
                edit(node)
                changed.append(f"{path.relative_to(workspace).as_posix()}::{node.name}")
        path.write_text(ast.unparse(tree) + "\n")
    return changed


def replace_bodies(workspace, rid: str, body: str) -> list[str]:
    """Replace the body of every test marked `rid` with `body`; the nodeids changed."""
    return edit_marked_tests(workspace, rid, lambda node: setattr(node, "body", ast.parse(body).body))


def plant_blind_tests(workspace, rid: str) -> list[str]:
    """Make every test marked `rid` a BLIND_BODY test that takes no fixture: its real check (the app
    answers /health) depends on none of the requirement's code. With the test's fixtures kept, a
    mutant breaking what a fixture needs (`models.db_path()` → None fails the generated conftest's
    schema template) errored the blind test and counted as killed, depending on which mutants the
    seeded plan picked."""
    def blind(node: ast.FunctionDef) -> None:
        node.body = ast.parse(BLIND_BODY).body
        node.args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    return edit_marked_tests(workspace, rid, blind)


def private_copy(todo_run, base: Path) -> tuple[RunStore, str]:
    """A private copy of the shared Todo run under `base`: (store, run_id)."""
    store, ctx = todo_run
    shutil.copytree(store.run_dir(ctx.run_id), base / "runs" / ctx.run_id)
    return RunStore(base / "runs"), ctx.run_id


def cli(*argv: str) -> tuple[int, str, str]:
    """`builder <argv>` in-process: (exit code, stdout, stderr)."""
    from harness.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def harness_run(run_id: str, runs_dir: Path, cwd: Path) -> subprocess.CompletedProcess:
    """`pytest --harness-run <id>` through `pytest.main`, as run_copies.harness_run_in_process."""
    import pytest

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = pytest.main(["-s", "-p", "no:cacheprovider", "--harness-run", run_id,
                                "--harness-runs-dir", str(runs_dir)])
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["pytest", "--harness-run", run_id], int(code), out.getvalue(), err.getvalue())


@dataclass
class Step:
    """What one judging step said and left behind: exit code, output, the run's artifacts then."""
    code: int
    out: str
    err: str
    artifacts: dict = field(default_factory=dict)


def artifacts(store: RunStore, run_id: str, *names: str) -> dict:
    """{name: parsed JSON} of the run's artifacts (absent ones left out), read now."""
    found = {}
    for name in names:
        path = store.artifact_path(run_id, name)
        if path.is_file():
            found[name] = json.loads(path.read_text())
    return found


def req_line(stdout: str, rid: str) -> str:
    """The `REQ-00N: STATUS — reasons` line `pytest --harness-run` printed for `rid` ('' if none)."""
    return next((line for line in stdout.splitlines() if line.startswith(f"{rid}: ")), "")


def audit_step(store: RunStore, run_id: str, *args: str) -> Step:
    """`builder audit <run_id> ARGS` in-process, with audit.json, review.json and matrix.json after it."""
    return Step(*cli("audit", run_id, "--runs-dir", store.base, *args),
                artifacts(store, run_id, "audit", "review", "matrix"))


def audited_copy(todo_run, base: Path) -> SimpleNamespace:
    """A private copy of the Todo run without its audit.json, audited again by `builder audit
    --max-mutants 3`: .store, .run_id, .before (workspace hashes before), .audit (Step)."""
    from run_copies import workspace_hashes

    store, run_id = private_copy(todo_run, base)
    before = workspace_hashes(store.workspace(run_id))
    store.artifact_path(run_id, "audit").unlink()
    return SimpleNamespace(store=store, run_id=run_id, before=before,
                           audit=audit_step(store, run_id, "--max-mutants", "3"))

