"""The runtime check's look at the app's database file (harness/verification/runtime.py): if the
app created it, it opens and lists its tables — in a private copy (judged_files.py: a link the
app made, or anything but a regular file, is not read and fails the check)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from harness.sandbox.judged_files import present, sqlite_copy


def sqlite_opens(db: Path, rec) -> None:
    """If the app created its database, it must open and list its tables; no file means no SQLite."""
    if not present(db):
        rec.evidence.append("sqlite: no database file created (not used)")
        return
    try:
        with sqlite_copy(db) as copy:
            conn = sqlite3.connect(copy)
            try:
                names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
            finally:
                conn.close()
    except sqlite3.Error as exc:
        rec.check("sqlite opens", False, f"{type(exc).__name__}: {exc}")
        return
    rec.check("sqlite opens", True, f"tables: {', '.join(names) or '(none)'}")
