"""The runtime check's look at the app's database file (harness/verification/runtime.py): if the
app created it, it opens and lists its tables."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def sqlite_opens(db: Path, rec) -> None:
    """If the app created its database, it must open and list its tables; no file means no SQLite."""
    if not db.exists():
        rec.evidence.append("sqlite: no database file created (not used)")
        return
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        rec.check("sqlite opens", False, f"{type(exc).__name__}: {exc}")
        return
    rec.check("sqlite opens", True, f"tables: {', '.join(names) or '(none)'}")
