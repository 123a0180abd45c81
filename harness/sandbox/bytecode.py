"""Bytecode in a workspace is never trusted: the source is what runs, so the source is what is judged.

Python imports `__pycache__/<module>.cpython-XY.pyc` instead of compiling `<module>.py` whenever the
pyc says it matches the source — and a pyc compiled with `invalidation_mode=UNCHECKED_HASH` says so
whatever the source holds. Hostile trial 2026-12-07 (A13): a report-flipping `src/__init__.py`
lived only in its pyc; the forgery scan, the review and the audit's copy read the clean source, the
test sessions and the served app ran the pyc. Verification never writes bytecode
(PYTHONDONTWRITEBYTECODE=1), so every `__pycache__` directory in a workspace came from outside the
harness (a user's own `pytest` run — harmless — or a plant): `drop_caches` removes them before any
contained process starts in that workspace (sandbox/runner.spawn) and before every warm session
(verification/verifier.run_command). Under bubblewrap the workspace is read-only to the code, so none
can reappear during a command; without it the WorkspaceGuard fingerprints caches too and voids a
result whose workspace changed. A *sourceless* `.pyc` outside `__pycache__` is importable on its
own (A12): the evidence snapshot hashes it, so a file no task wrote voids the evidence.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CACHE_DIR = "__pycache__"
# Never walked: the harness's own output, VCS data and virtualenvs (code there runs only from a
# path the workspace's configuration names, which the evidence snapshot and the forgery scan see).
_NOT_WALKED = frozenset({".git", ".venv", "venv", "node_modules", "evidence"})


class BytecodeError(OSError):
    """A bytecode cache in the workspace could not be removed."""


def drop_caches(root: Path) -> list[str]:
    """Remove every `__pycache__` (a directory or a link) under `root`; their paths relative to it.
    BytecodeError when one cannot be removed (nothing may run beside bytes nobody reviewed)."""
    removed: list[str] = []
    for dirpath, dirnames, _files in os.walk(root):
        keep = []
        for name in dirnames:
            path = Path(dirpath, name)
            if name == CACHE_DIR:
                _remove(path)
                removed.append(path.relative_to(root).as_posix())
            elif name not in _NOT_WALKED:
                keep.append(name)
        dirnames[:] = keep
    return removed


def _remove(path: Path) -> None:
    try:
        if path.is_symlink():
            path.unlink()
        else:
            shutil.rmtree(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise BytecodeError(f"cannot remove the bytecode cache {path}: {exc.strerror or exc}") from None
