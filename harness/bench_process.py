"""`builder new` as a whole process, beside the floor: what a user waits for.

`builder bench --quick` times its in-process builds from the pipeline's start to its end; a user
waits for more: the interpreter's start, the harness's imports, the worker's start-up, the writing
of the run's reports, and the process's exit (its workers and servers stopped). This module runs
`builder new REQUEST` as a child process of the bench, exactly as a user types it (its own
interpreter, the bench's environment), once with the mutation audit (the default) and once with
`--no-audit`, and reports each wall time — from spawning the process to its exit — as a ratio to
the floor the same bench run measured (harness/bench_floor.py). Nothing is timed in tests: the
bench prints what it measured.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from harness.state.store import RunStore

TIMEOUT_S = 900.0


@dataclass
class ProcessBuild:
    """One `builder new` process: its argv (as shown), wall seconds, exit code, the run's workspace."""

    label: str
    shown: str
    seconds: float
    exit_code: int
    workspace: Path


def builder_new(request: str, runs: Path, label: str, *extra: str) -> ProcessBuild:
    """Run `builder new REQUEST --runs-dir RUNS --run-id process_LABEL --quiet EXTRA...` as its own
    process (the console script's module, on this interpreter) and time it from spawn to exit."""
    run_id = "process_" + label.replace(" ", "_")
    args = ["new", request, "--runs-dir", str(runs), "--run-id", run_id, "--quiet", *extra]
    argv = [sys.executable, "-m", "harness.entry", *args]
    started = time.monotonic()
    try:
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT_S, check=False)
        code = done.returncode
    except subprocess.TimeoutExpired:
        code = -1
    seconds = time.monotonic() - started
    shown = " ".join([f"builder new {request!r}", *extra])
    return ProcessBuild(label, shown, seconds, code, RunStore(runs).workspace(run_id))


def measure(request: str, runs: Path, floor_sample) -> list[ProcessBuild]:
    """`builder new REQUEST` with the audit, then with `--no-audit`; `floor_sample()` is called after
    each (the bench takes one floor sample after every build, so the floor is measured beside them)."""
    builds = []
    for label, extra in (("with audit", ()), ("without audit", ("--no-audit",))):
        builds.append(builder_new(request, runs, label, *extra))
        floor_sample()
    return builds


def process_lines(builds: list[ProcessBuild], floor_s: float) -> list[str]:
    """The whole-process figures as ratios to the floor (`floor_s`, the bench's median floor):
    `builder new 'Build ...': 30.12s = 2.45x floor (12.30s), exit 0`."""
    lines = ["builder new as a whole process (spawn to exit: what a user waits for), beside the same floor:"]
    for build in builds:
        lines.append(f"  {build.label:<13} {build.seconds:6.2f}s = {build.seconds / floor_s:.2f}x floor "
                     f"({floor_s:.2f}s), exit {build.exit_code}: {build.shown}")
    return lines


def process_checks(builds: list[ProcessBuild]) -> list[tuple[str, bool, str]]:
    """(name, ok, detail): every `builder new` process finished with BUILD COMPLETE (exit 0)."""
    return [(f"whole process ({build.label})", build.exit_code == 0, f"exit {build.exit_code} in {build.seconds:.2f}s")
            for build in builds]
