"""`builder bench --plugin-overhead DIR`: what recording evidence costs on a project's own suite.

Runs the project's pytest alternately with the plugin inert (loaded, so `req` markers stay
registered under --strict-markers, but nothing recorded) and with evidence recorded, `rounds`
times each, and reports the median wall times and the median CPU time (user + system) of the
pytest process: on a loaded shared machine the wall time mostly measures the scheduler, the CPU
time what recording costs. A measurement, not a test.
"""

from __future__ import annotations

import json
import os
import resource
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


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(project: Path, extra: list[str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the finished pytest process, exit code)."""
    started, cpu = time.perf_counter(), _children_cpu_s()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")}
    proc = subprocess.run([*PYTEST, *extra], cwd=project, capture_output=True, text=True, timeout=TIMEOUT_S,
                          env=env)
    return time.perf_counter() - started, _children_cpu_s() - cpu, proc.returncode


def measure(project: Path, rounds: int, extra: list[str]) -> dict:
    """Median seconds without and with evidence, the exit codes seen and the collected count."""
    base, rec, base_cpu, rec_cpu, codes = [], [], [], [], set()
    with tempfile.TemporaryDirectory(prefix="harness-bench-") as tmp:
        evidence = Path(tmp, "evidence.json")
        for _ in range(rounds):
            seconds, cpu, code = _run(project, [*extra, *INERT])
            base.append(seconds)
            base_cpu.append(cpu)
            codes.add(("baseline", code))
            seconds, cpu, code = _run(project, [*extra, f"--harness-evidence={evidence}"])
            rec.append(seconds)
            rec_cpu.append(cpu)
            codes.add(("evidence", code))
        collected = json.loads(evidence.read_text())["session"]["collected"] if evidence.exists() else None
    return {"baseline_s": statistics.median(base), "evidence_s": statistics.median(rec),
            "baseline_cpu_s": statistics.median(base_cpu), "evidence_cpu_s": statistics.median(rec_cpu),
            "exit_codes": sorted(codes), "collected": collected, "rounds": rounds}


def overhead_line(project: Path, result: dict) -> str:
    """One line: tests, medians (wall, then CPU) and the relative overheads."""
    base, rec = result["baseline_s"], result["evidence_s"]
    pct = 100.0 * (rec - base) / base if base else 0.0
    base_cpu, rec_cpu = result["baseline_cpu_s"], result["evidence_cpu_s"]
    ratio = rec_cpu / base_cpu if base_cpu else 0.0
    return (f"plugin overhead  {project.name}: {result['collected']} tests, plugin inert {base:.2f}s, "
            f"with evidence {rec:.2f}s ({pct:+.1f}%), CPU {base_cpu:.2f}s -> {rec_cpu:.2f}s ({ratio:.2f}x), "
            f"median of {result['rounds']} rounds, "
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
