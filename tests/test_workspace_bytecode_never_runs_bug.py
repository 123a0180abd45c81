"""The source is what runs: a workspace's bytecode is never loaded instead of its source.

Hostile trial 2026-12-07: A13 compiled a report-flipping `src/__init__.py` into
`src/__pycache__/__init__.cpython-XY.pyc` with `invalidation_mode=UNCHECKED_HASH` (Python then
trusts it whatever the source says); the test sessions and the served app ran it while the forgery
scan and the review read the clean source — HARNESS RUN PASS. A12 imported a sourceless
`src/tidy.pyc` that the evidence snapshot did not hash.
"""

from __future__ import annotations

import py_compile
import sys
from pathlib import Path

from harness.sandbox.bytecode import drop_caches
from harness.sandbox.local import LocalSandbox


def _plant_unchecked_pyc(workspace: Path, module: str, forged_source: str) -> Path:
    """An UNCHECKED_HASH pyc of `forged_source` where Python looks for `module`'s bytecode."""
    forged = workspace / "forged_src" / f"{module}.py"
    forged.parent.mkdir(parents=True, exist_ok=True)
    forged.write_text(forged_source)
    tag = sys.implementation.cache_tag
    target = workspace / "__pycache__" / f"{module}.{tag}.pyc"
    py_compile.compile(str(forged), cfile=str(target), dfile=str(workspace / f"{module}.py"),
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH, doraise=True)
    forged.unlink()
    forged.parent.rmdir()
    return target


def test_a_planted_unchecked_pyc_never_replaces_its_source_bug(tmp_path):
    (tmp_path / "m.py").write_text("X = 'source'\n")
    pyc = _plant_unchecked_pyc(tmp_path, "m", "X = 'forged pyc'\n")
    assert pyc.is_file()
    res = LocalSandbox(tmp_path).execute([sys.executable, "-c", "import m; print(m.X)"], timeout_s=60)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip() == "source"
    assert not pyc.exists()


def test_drop_caches_removes_nested_caches_and_links_and_keeps_sources(tmp_path):
    (tmp_path / "src" / "__pycache__").mkdir(parents=True)
    (tmp_path / "src" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"x")
    (tmp_path / "src" / "a.py").write_text("A = 1\n")
    (tmp_path / "tests" / "deep" / "__pycache__").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "tests" / "__pycache__").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "venv" / "lib" / "__pycache__").mkdir(parents=True)   # a virtualenv is not walked
    removed = drop_caches(tmp_path)
    assert sorted(removed) == ["src/__pycache__", "tests/__pycache__", "tests/deep/__pycache__"]
    assert (tmp_path / "src" / "a.py").is_file() and (tmp_path / "elsewhere").is_dir()
    assert (tmp_path / "venv" / "lib" / "__pycache__").is_dir()


def test_a_sourceless_pyc_in_the_workspace_is_part_of_the_snapshot_bug(tmp_path):
    from pytest_harness.snapshot import snapshot_files

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("A = 1\n")
    (tmp_path / "src" / "tidy.pyc").write_bytes(b"\x00forged")
    (tmp_path / "src" / "__pycache__").mkdir()
    (tmp_path / "src" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"cache")
    files = snapshot_files(tmp_path)["files"]
    assert "src/tidy.pyc" in files and "src/a.py" in files
    assert not any("__pycache__" in f for f in files)


def test_harness_run_ignores_a_forged_pyc_of_the_app_bug(fresh_todo_run, tmp_path):
    """A forged pyc of the Todo app's package init that breaks the app at import: with the pyc
    loaded every session and the served app fail; the source is clean, so the re-verification of the
    untouched sources passes — what runs is what was reviewed."""
    from run_copies import harness_run

    store, run_id = fresh_todo_run
    ws = store.workspace(run_id)
    src = ws / "src"
    pyc = _plant_unchecked_pyc(src, "__init__", "raise SystemExit('forged bytecode ran')\n")
    assert pyc.is_file()
    proc = harness_run(run_id, store.base, tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "HARNESS RUN PASS" in proc.stdout
    assert "forged bytecode ran" not in proc.stdout + proc.stderr
