"""Without bubblewrap the workspace cannot be bound read-only: detect any change code under test made.

`WorkspaceGuard(root)` fingerprints every entry under the workspace before the code runs — nothing
skipped: caches, databases, `evidence/`, `venv/` all count — and `changed()` fingerprints it again
afterwards. An entry's fingerprint is its kind, mode, inode, size, mtime and ctime, plus the
SHA-256 of a file's bytes (a symlink's target). ctime cannot be set from user space: a file
swapped and put back, even with its mtime restored, still differs. A result whose workspace
changed is void (the caller fails it, naming the paths): it may not rest on bytes it did not run.
Under bubblewrap the workspace is read-only (isolation.py) and the guard is not needed (`needed`).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

MAX_SHOWN = 5


def needed(isolation: str) -> bool:
    """True when the code under test could write the workspace (no bubblewrap)."""
    from harness.sandbox.isolation import BWRAP

    return isolation != BWRAP


def _entry(path: str, st: os.stat_result) -> tuple:
    head = (stat.S_IFMT(st.st_mode), st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if stat.S_ISLNK(st.st_mode):
        return (*head, os.readlink(path))
    if stat.S_ISREG(st.st_mode):
        digest = hashlib.sha256()
        try:
            with open(path, "rb", buffering=0) as fh:
                while chunk := fh.read(1 << 20):
                    digest.update(chunk)
        except OSError as exc:
            return (*head, f"unreadable: {exc.errno}")
        return (*head, digest.hexdigest())
    return head


def fingerprint(root: Path) -> dict[str, tuple]:
    """{relative path: fingerprint} of the root and everything under it (symlinks not followed)."""
    root_s = os.fspath(root)
    found: dict[str, tuple] = {".": _entry(root_s, os.lstat(root_s))}
    for dirpath, dirnames, filenames in os.walk(root_s):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            try:
                found[os.path.relpath(path, root_s)] = _entry(path, os.lstat(path))
            except FileNotFoundError:
                continue
    return found


def differences(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    """Relative paths added, removed or changed between two fingerprints, sorted."""
    return sorted(rel for rel in before.keys() | after.keys() if before.get(rel) != after.get(rel))


class WorkspaceGuard:
    """A fingerprint of `root` taken now (when `active`); `violation()` says what changed since."""

    def __init__(self, root: Path, active: bool = True):
        self.root = Path(root)
        self.before = fingerprint(self.root) if active else None

    def violation(self) -> str:
        """"" when nothing changed (or the guard is off), else a one-line reason naming the paths."""
        if self.before is None:
            return ""
        changed = differences(self.before, fingerprint(self.root))
        if not changed:
            return ""
        shown = ", ".join(changed[:MAX_SHOWN]) + (f" and {len(changed) - MAX_SHOWN} more" if len(changed) > MAX_SHOWN else "")
        return (f"result void: the workspace changed while its code ran ({shown}); tests must write only "
                f"under tmp_path (install bubblewrap to make the workspace read-only)")
