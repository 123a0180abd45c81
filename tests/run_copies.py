"""Helpers shared by the trace/repair/inject tests: private run copies, hashes, CLI calls."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from harness.state.store import RunStore


def copy_run(store: RunStore, run_id: str, base: Path) -> RunStore:
    """A private copy of runs/<run_id> under `base` (same run id); its store."""
    shutil.copytree(store.run_dir(run_id), base / run_id)
    return RunStore(base)


def workspace_hashes(workspace: Path) -> dict[str, str]:
    """{relpath: sha256} of every workspace file the evidence snapshot covers."""
    from pytest_harness.snapshot import snapshot_files

    return snapshot_files(workspace)["files"]


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    """Run `builder <argv>` in-process; (exit code, stdout, stderr)."""
    from harness.cli import main

    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def harness_run(run_id: str, runs_dir: Path, cwd: Path) -> subprocess.CompletedProcess:
    """`python -m pytest --harness-run <id> --harness-runs-dir <dir>` as a real subprocess."""
    return subprocess.run([sys.executable, "-m", "pytest", "--harness-run", run_id, "--harness-runs-dir",
                           str(runs_dir)], cwd=cwd, capture_output=True, text=True, timeout=180)


def harness_run_in_process(run_id: str, runs_dir: Path, cwd: Path, capsys) -> subprocess.CompletedProcess:
    """`pytest --harness-run <id> --harness-runs-dir <dir>` through `pytest.main` in this interpreter:
    the same option parsing, plugin hook (pytest_harness.plugin.pytest_cmdline_main) and re-verifier
    as `harness_run`, whose verification commands run in the same sandboxed subprocesses, without
    a new interpreter's start (~2-3 s of imports a call on this machine). `harness_run` itself stays
    the real subprocess; test_trace and test_demo_run use it."""
    import os

    import pytest

    capsys.readouterr()
    here = os.getcwd()
    os.chdir(cwd)
    try:  # -s: the re-verifier prints while pytest's own capture is suspended, as in the subprocess
        code = pytest.main(["-s", "-p", "no:cacheprovider", "--harness-run", run_id,
                            "--harness-runs-dir", str(runs_dir)])
    finally:
        os.chdir(here)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["pytest", "--harness-run", run_id], int(code), out, err)


def strip_markers(workspace: Path, req_id: str) -> list[str]:
    """Remove every `@pytest.mark.req('<req_id>')` line from the workspace tests; files changed."""
    line = re.compile(rf"^[ \t]*@pytest\.mark\.req\(['\"]{req_id}['\"]\)[ \t]*\n", re.M)
    changed = []
    for path in sorted((workspace / "tests").glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        new = line.sub("", text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path.relative_to(workspace).as_posix())
    return changed


def row(matrix, req_id: str):
    """The MatrixRow of `req_id` in a TraceMatrix (or in matrix.json's parsed dict)."""
    from harness.models.trace import TraceMatrix

    typed = matrix if isinstance(matrix, TraceMatrix) else TraceMatrix.model_validate(matrix)
    return typed.row(req_id)


def source_files(ws: Path) -> dict[str, str]:
    """{relpath: sha256} of every workspace file but bytecode caches: a `__pycache__` another test's
    in-process import left in the shared run is removed before any contained process starts
    (harness/sandbox/bytecode.py), and a cache is no file a repair touched."""
    from harness.utils.fileio import sha256_file

    return {p.relative_to(ws).as_posix(): sha256_file(p) for p in ws.rglob("*")
            if p.is_file() and "__pycache__" not in p.relative_to(ws).parts}


def injected_copy(todo_run, base: Path, *inject_args: str):
    """A private copy of the shared Todo run (conftest.todo_run) under `base` after a real in-process
    `builder inject <run> INJECT_ARGS --runs-dir base`, for tests that read what the inject left
    (conftest.py: repaired_inject_run, looped_inject_run). Returns .store, .run_id, .code, .out, .err
    of the inject (.run_id: the copy it worked on, .original: the untouched run) and, from before it, .before (workspace_hashes) and .before_files ({relpath: sha256}
    of every file in the workspace)."""
    import contextlib
    import io
    from types import SimpleNamespace

    from harness.cli import main

    src_store, ctx = todo_run
    store = copy_run(src_store, ctx.run_id, base)
    ws = store.workspace(ctx.run_id)
    before = workspace_hashes(ws)
    before_files = source_files(ws)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["inject", ctx.run_id, *inject_args, "--runs-dir", str(base)])
    # inject works on a copy of the run (`<id>-inject-1`); the original stays as it was
    return SimpleNamespace(store=store, run_id=f"{ctx.run_id}-inject-1", original=ctx.run_id, code=code,
                           out=out.getvalue(), err=err.getvalue(), before=before, before_files=before_files)
