"""`builder bench --plugin-overhead DIR`: what recording evidence costs on a project's own suite.

Runs the project's pytest alternately with the plugin inert (loaded, so `req` markers stay
registered under --strict-markers, but nothing recorded) and with evidence recorded, `rounds`
times each, and reports the median wall times. A measurement, not a test.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.errors import EXIT_OK, InputError

PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider")
# Blank values count as not given: the project's own ini cannot switch recording on for the baseline.
INERT = ("-o", "harness_evidence=", "-o", "harness_fail_under=", "-o", "harness_report=")
TIMEOUT_S = 1800


def _run(project: Path, extra: list[str]) -> tuple[float, int]:
    started = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")}
    proc = subprocess.run([*PYTEST, *extra], cwd=project, capture_output=True, text=True, timeout=TIMEOUT_S,
                          env=env)
    return time.perf_counter() - started, proc.returncode


def measure(project: Path, rounds: int, extra: list[str]) -> dict:
    """Median seconds without and with evidence, the exit codes seen and the collected count."""
    base, rec, codes = [], [], set()
    with tempfile.TemporaryDirectory(prefix="harness-bench-") as tmp:
        evidence = Path(tmp, "evidence.json")
        for _ in range(rounds):
            seconds, code = _run(project, [*extra, *INERT])
            base.append(seconds)
            codes.add(("baseline", code))
            seconds, code = _run(project, [*extra, f"--harness-evidence={evidence}"])
            rec.append(seconds)
            codes.add(("evidence", code))
        collected = json.loads(evidence.read_text())["session"]["collected"] if evidence.exists() else None
    return {"baseline_s": statistics.median(base), "evidence_s": statistics.median(rec),
            "exit_codes": sorted(codes), "collected": collected, "rounds": rounds}


def overhead_line(project: Path, result: dict) -> str:
    """One line: tests, medians and the relative overhead."""
    base, rec = result["baseline_s"], result["evidence_s"]
    pct = 100.0 * (rec - base) / base if base else 0.0
    return (f"plugin overhead  {project.name}: {result['collected']} tests, plugin inert {base:.2f}s, "
            f"with evidence {rec:.2f}s ({pct:+.1f}%), median of {result['rounds']} rounds, "
            f"exit codes {', '.join(f'{k}={c}' for k, c in result['exit_codes'])}")


def run_plugin_overhead(project: str, rounds: int, extra: list[str]) -> int:
    """Measure and print the overhead line."""
    path = Path(project).resolve()
    if not path.is_dir():
        raise InputError(f"--plugin-overhead: {project} is not a directory")
    if rounds < 1:
        raise InputError("--rounds must be at least 1")
    print(overhead_line(path, measure(path, rounds, extra)), flush=True)
    return EXIT_OK
