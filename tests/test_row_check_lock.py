"""A whole-record rule that reads other records — a place's capacity (examples/hackspace_lending.toml)
or no double booking (examples/club_bookings.toml) — and the write after it are one transaction:
the generated `_check_row` takes SQLite's write lock (BEGIN IMMEDIATE) before it reads. Before,
two requests could both count the last place free and both take it (a tool lent to two members
at once). Proved with two connections and no timing (tests/row_check_lock_probe.py)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files

ROOT = Path(__file__).resolve().parents[1]
PROBE = ROOT / "tests" / "row_check_lock_probe.py"
LOCK = 'if not db.in_transaction:'

CASES = {
    "capacity": ("hackspace_lending", "borrow", "/api/borrows",
                 {"item": ["/api/items", {"name": "Soldering iron", "label": "SI-1"}]},
                 {"borrowed_when": "2024-01-02"}),
    "no_double_booking": ("club_bookings", "booking", "/api/bookings",
                          {"court_id": ["/api/courts", {"name": "Court 1"}],
                           "member": ["/api/members", {"name": "Ada", "email": "ada@example.com"}]},
                          {"date": "2024-01-02", "start_time": "09:30", "end_time": "11:00"}),
}


@pytest.mark.parametrize("feature", list(CASES))
def test_row_check_and_write_are_one_transaction_bug(tmp_path, feature):
    example, ident, url, refs, body = CASES[feature]
    ws = write_files(generate_files(load_spec_file(ROOT / "examples" / f"{example}.toml")), tmp_path / "ws")
    done = subprocess.run([sys.executable, str(PROBE), ident, url, json.dumps(refs), json.dumps(body)],
                          cwd=ws, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
