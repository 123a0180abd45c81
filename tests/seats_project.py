"""A small foreign project for the mutation audit's tests: a seat limit (`taken < capacity`) and a
range of days, each a requirement, with tests that check both far from their boundary (EDGE adds
one that probes it). `mutate(project, *args)` runs the real plugin with `--harness-mutate`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SEATS = '''def can_book(taken: int, capacity: int) -> bool:
    """Whether one more seat can be booked."""
    if taken < capacity:
        return True
    return False


def next_days(start: int, days: int) -> list[int]:
    """The `days` day numbers from `start` on."""
    return list(range(start, start + days))
'''

TESTS = '''import pytest

from seats import can_book, next_days


@pytest.mark.req("REQ-001")
def test_a_seat_is_free_below_capacity_and_not_above():
    assert can_book(1, 5) is True
    assert can_book(9, 5) is False
{edge}

@pytest.mark.req("REQ-002")
def test_the_days_start_at_the_start():
    assert next_days(3, 2)[0] == 3
'''
EDGE = "    assert can_book(5, 5) is False   # the last seat is taken: the boundary\n"

REQUIREMENTS = '''[requirements]
REQ-001 = "A seat can be booked while fewer than capacity are taken"
REQ-002 = "The booking calendar lists the next days from a start day"

[files]
REQ-001 = ["src/seats.py"]
REQ-002 = ["src/seats.py"]
'''


def make_project(tmp_path: Path, edge: str = "") -> Path:
    project = tmp_path / "seats_project"
    (project / "src").mkdir(parents=True)
    (project / "tests").mkdir()
    (project / "src" / "seats.py").write_text(SEATS)
    (project / "tests" / "test_seats.py").write_text(TESTS.format(edge=edge))
    (project / "requirements.toml").write_text(REQUIREMENTS)
    (project / "pytest.ini").write_text("[pytest]\ntestpaths = tests\npythonpath = src\naddopts = -p no:cacheprovider\n")
    return project


def mutate(project: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "PYTEST_"))}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist",
                           "--harness-requirements-file=requirements.toml", "--harness-mutate",
                           "--harness-evidence=ev.json", *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)
    document = json.loads((project / "ev.json").read_text()) if (project / "ev.json").is_file() else {}
    return done, document
