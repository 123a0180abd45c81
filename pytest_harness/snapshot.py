"""Workspace hashing: the pre-run snapshot a consumer recomputes to detect stale evidence."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

# Caches, databases and evidence change on every run; hashing them would make evidence stale at once.
SKIP_DIRS = frozenset({
    "__pycache__", ".pytest_cache", ".hypothesis", "evidence",
    ".git", ".mypy_cache", ".ruff_cache", ".venv", "venv", "node_modules",
})
SKIP_NAMES = frozenset({".report.json"})  # pytest-json-report's default output
# Bytecode inside __pycache__ (skipped with its directory) is never loaded by the harness
# (harness/sandbox/bytecode.py removes those caches); a sourceless .pyc elsewhere is importable on
# its own, so it is hashed like any other file: one no task wrote voids the evidence.
_SKIP_FILE_RE = re.compile(r"\.(db|sqlite3?)(-journal|-wal|-shm)?$")


def is_skipped_file(name: str) -> bool:
    """True for file names the snapshot ignores (SQLite files, debug reports)."""
    return name in SKIP_NAMES or _SKIP_FILE_RE.search(name) is not None


def iter_files(root: Path) -> Iterator[tuple[str, Path]]:
    """Yield (POSIX relpath, path) for every hashed file under `root`, without following dir symlinks."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            if not is_skipped_file(name):
                path = Path(dirpath, name)
                yield path.relative_to(root).as_posix(), path


def hash_file(path: Path) -> str | None:
    """Return "sha256:<hex>" of a regular file or of a symlink's target string; None for other kinds."""
    digest = hashlib.sha256()
    if path.is_symlink():
        # Hash the link itself so a link pointing outside the workspace is never read.
        digest.update(b"symlink:" + os.fsencode(os.readlink(path)))
    elif path.is_file():
        with path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 16), b""):
                digest.update(chunk)
    else:
        return None
    return "sha256:" + digest.hexdigest()


def digest_of(files: Mapping[str, str]) -> str:
    """Return the digest of a {relpath: hash} mapping (order-independent)."""
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(f"{rel}\0{files[rel]}\n".encode())
    return "sha256:" + digest.hexdigest()


def snapshot_files(root: Path) -> dict:
    """Hash the workspace: {"files": {relpath: "sha256:<hex>"} sorted, "digest": "sha256:<hex>"}."""
    files: dict[str, str] = {}
    for rel, path in iter_files(Path(root)):
        value = hash_file(path)
        if value is not None:
            files[rel] = value
    files = dict(sorted(files.items()))
    return {"files": files, "digest": digest_of(files)}


def changed_files(old: Mapping[str, str], new: Mapping[str, str]) -> list[str]:
    """Relpaths added, removed or modified between two snapshots' "files" maps, sorted."""
    return sorted(rel for rel in set(old) | set(new) if old.get(rel) != new.get(rel))
