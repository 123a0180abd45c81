"""The rules that decide whether work started early may stand for work done now — all of them.

The invariant (docs/speed.md): every test outcome a verdict reads was executed in that
verification, in a fresh process or fork, against the bytes the verdict is about. Speed may start
work early; it never stands in for work that was not done on the final bytes. Each rule below is
the only place its path's early result is judged:

- `workspace_digest`: the bytes of a workspace — every regular file and symlink under it, with no
  folder or suffix skipped (the evidence snapshot skips evidence/, venv/, node_modules/, *.db,
  *.pyc: code or data there is still code or data a run reads).
- `ran_final_bytes`: an early result (the runtime check and the final whole suite started beside
  the last task, the last task's own whole-suite session that carried nothing; a suite only when it
  passed) is adopted only when the workspace digest taken before it started, the one taken
  when it ended, and the one of the final workspace now are the same. With bubblewrap the
  workspace is read-only while code under test runs, which closes a swap-and-restore between the
  two ends.
- `lanes_hold_evidenced_bytes`: audit lanes filled ahead serve only the evidence of exactly the
  bytes they copied (the evidence snapshot's digest too) and the bytes still there.
- `prestart_shadowed`: a server whose imports were done before the check must not have imported a
  package a workspace module of the same name would shadow in a cold start (the app directory
  comes first on the path once uvicorn reads `--app-dir`).
- Carry (per-task sessions only) is judged per test by the plugin from the test's read set
  (pytest_harness/carry.py); the final whole suite is never offered carry, so no verdict rests on it.
- The warm worker's rewrite memo is used only within one harness process, for files with exactly
  the bytes it was made from (harness/speed/warm/rewrite_cache.py): no state crosses runs.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path



def workspace_digest(workspace: Path) -> str | None:
    """sha256 over every file's relative path and content (a symlink: its target string), nothing
    skipped and no symlinked directory followed; None when the tree cannot be read."""
    root = Path(workspace)
    digest = hashlib.sha256()
    try:
        entries = []
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            dirnames.sort()
            for name in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))] + filenames:
                entries.append(os.path.join(dirpath, name))
        for path in sorted(entries):
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                digest.update(f"L\0{rel}\0{os.readlink(path)}\n".encode())
            elif os.path.isfile(path):
                file_hash = hashlib.sha256()
                with open(path, "rb") as fh:
                    for chunk in iter(lambda: fh.read(1 << 16), b""):
                        file_hash.update(chunk)
                digest.update(f"F\0{rel}\0{file_hash.hexdigest()}\n".encode())
            else:
                digest.update(f"O\0{rel}\n".encode())   # a fifo or socket: its presence counts
    except OSError:
        return None
    return "sha256:" + digest.hexdigest()


def ran_final_bytes(before: str | None, after: str | None, final: str | None) -> bool:
    """True only when the early work started and ended on the bytes the verdict is about."""
    return before is not None and before == after == final


def lanes_hold_evidenced_bytes(copied: str | None, now: str | None, copied_snapshot: str | None,
                               evidence_snapshot: str | None) -> bool:
    """Lanes copied from `copied` bytes serve the audit of evidence whose snapshot digest is
    `evidence_snapshot` only when the workspace still has those bytes and the evidence is of them."""
    return (copied is not None and copied == now and copied_snapshot is not None
            and copied_snapshot == evidence_snapshot)


def prestart_shadowed(workspace: Path) -> list[str]:
    """Top-level names in the workspace that a cold server start would import from the workspace
    instead of the installed package a prestarted server already holds; empty when none (such a
    workspace is served `--bare`: harness/verification/app_server.py)."""
    from harness.verification.app_server import shadowed

    return shadowed(workspace)
