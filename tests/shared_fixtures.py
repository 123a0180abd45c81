"""Session fixtures built once per test session, not once per xdist worker.

A session-scoped fixture is per process: under `-n 2` each worker that ran a module needing the
shared Todo build made its own (conftest.py: todo_run and the copies made from it), ~11 s of the
suite's worker time spent building the same runs twice (2026-12-05, per-fixture setup times). The
first worker that asks builds the value under the session's basetemp, which every worker shares,
and pickles it; a later worker waits on the same lock and unpickles it. Without xdist the value is
built as before. What is built this way is read-only for every test (a test that modifies a run
takes a private copy): `changed_since_built` checks that at session end.
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def shared_root(tmp_path_factory) -> Path | None:
    """The directory every worker of this session shares (the session's own basetemp: conftest.py
    gives each session a private one), or None when the suite runs in one process."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return None
    # named after the session's run id: a --basetemp given again keeps the last session's values
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    root = tmp_path_factory.getbasetemp().parent / f"shared_fixtures-{run}"
    root.mkdir(exist_ok=True)
    return root


def built_once(tmp_path_factory, name: str, build: Callable[[Path], T],
               dump: Callable[[T], object] = lambda value: value,
               load: Callable[[object], T] = lambda saved: saved) -> T:
    """build(directory) once per session: directory is fresh and shared by all workers. `dump`
    turns the value into what pickles (`load` turns it back) when the value holds something that
    does not (an open provider, a callback)."""
    root = shared_root(tmp_path_factory)
    if root is None:
        return build(tmp_path_factory.mktemp(name))
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # released when the file closes, even if build raises
        saved = root / f"{name}.pickle"
        if saved.exists():
            return load(pickle.loads(saved.read_bytes()))
        directory = root / name
        directory.mkdir()
        value = build(directory)
        (root / f"{name}.digest").write_bytes(pickle.dumps(tree_digest(directory)))
        partial = saved.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(dump(value)))
        partial.replace(saved)
        return value


def changed_since_built(tmp_path_factory, name: str) -> list[str]:
    """The files under the shared directory of `name` that a test added, removed or rewrote since it
    was built ([] without xdist: each process then owns its own copy)."""
    root = shared_root(tmp_path_factory)
    if root is None or not (root / f"{name}.digest").exists():
        return []
    before = pickle.loads((root / f"{name}.digest").read_bytes())
    after = tree_digest(root / name)
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def tree_digest(root: Path) -> dict[str, tuple[int, int]]:
    """{relpath: (size, mtime_ns)} of every file under root: what `changed_since_built` compares."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            stat = path.stat()
            found[path.relative_to(root).as_posix()] = (stat.st_size, stat.st_mtime_ns)
    return found
