"""`builder bench --plugin-overhead DIR`: what recording evidence costs on a project's own suite.

Runs the project's pytest alternately with the plugin inert (loaded, so `req` markers stay
registered under --strict-markers, but nothing recorded) and with evidence recorded, `rounds`
times each, and reports the median wall times and the median CPU time (user + system) of the
pytest process: on a loaded shared machine the wall time mostly measures the scheduler, the CPU
time what recording costs. A measurement, not a test.

`--mark-tests N` measures a project whose tests carry no `req` markers as one that marks N of
them: both modes load a small plugin that marks N collected tests (spread evenly) with REQ-1..N.
A round whose pytest ended with anything but 0 (all passed) or 1 (some failed), or whose two modes
ended differently, or whose evidence run wrote no document, is an error naming the round and the
end of pytest's output: never a ratio.
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

from harness.errors import EXIT_OK, HarnessError, InputError

PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider")
# Blank values count as not given: the project's own ini cannot switch recording on for the baseline.
INERT = ("-o", "harness_evidence=", "-o", "harness_fail_under=", "-o", "harness_report=")
TIMEOUT_S = 1800
MEASURABLE_EXITS = (0, 1)
MARKER_PLUGIN = "harness_bench_marks"
MARKER_SOURCE = '''"""Marks N collected tests (spread evenly) with req ids, for `builder bench --plugin-overhead`."""
import os

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    count = min(int(os.environ["HARNESS_BENCH_MARK_TESTS"]), len(items))
    step = len(items) / count if count else 0
    for n in range(count):
        items[int(n * step)].add_marker(pytest.mark.req(f"REQ-{n + 1}"))
'''


class BenchRoundError(HarnessError):
    """A measured round did not run the project's tests as asked."""


def _tail(text: str, lines: int = 6) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:] if line.strip())


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(project: Path, extra: list[str], env_extra: dict[str, str], what: str) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the finished pytest process, exit code); BenchRoundError when
    pytest did not get to run the tests (usage error, no tests, internal error, interrupted)."""
    started, cpu = time.perf_counter(), _children_cpu_s()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")} | env_extra
    proc = subprocess.run([*PYTEST, *extra], cwd=project, capture_output=True, text=True, timeout=TIMEOUT_S,
                          env=env)
    if proc.returncode not in MEASURABLE_EXITS:
        raise BenchRoundError(f"--plugin-overhead: the {what} round exited {proc.returncode}, nothing measured: "
                              f"{_tail(proc.stdout + proc.stderr)}")
    return time.perf_counter() - started, _children_cpu_s() - cpu, proc.returncode


def _marking(tmp: str, mark_tests: int | None) -> tuple[list[str], dict[str, str]]:
    """The pytest arguments and environment that load the marking plugin (nothing when not asked)."""
    if not mark_tests:
        return [], {}
    Path(tmp, f"{MARKER_PLUGIN}.py").write_text(MARKER_SOURCE)
    path = os.pathsep.join(p for p in (tmp, os.environ.get("PYTHONPATH", "")) if p)
    return ["-p", MARKER_PLUGIN], {"PYTHONPATH": path, "HARNESS_BENCH_MARK_TESTS": str(mark_tests)}


def measure(project: Path, rounds: int, extra: list[str], mark_tests: int | None = None) -> dict:
    """Median seconds without and with evidence, the exit codes seen and the collected count;
    BenchRoundError when any round could not be measured."""
    base, rec, base_cpu, rec_cpu, codes = [], [], [], [], set()
    with tempfile.TemporaryDirectory(prefix="harness-bench-") as tmp:
        evidence = Path(tmp, "evidence.json")
        marks, env = _marking(tmp, mark_tests)
        for n in range(1, rounds + 1):
            seconds, cpu, base_code = _run(project, [*extra, *marks, *INERT], env, f"plugin-inert {n}")
            base.append(seconds)
            base_cpu.append(cpu)
            evidence.unlink(missing_ok=True)
            seconds, cpu, code = _run(project, [*extra, *marks, f"--harness-evidence={evidence}"], env, f"evidence {n}")
            rec.append(seconds)
            rec_cpu.append(cpu)
            if code != base_code:
                raise BenchRoundError(f"--plugin-overhead: round {n} exited {base_code} plugin-inert but {code} "
                                      "with evidence: the two modes did not run the same tests")
            if not evidence.exists():
                raise BenchRoundError(f"--plugin-overhead: the evidence round {n} wrote no evidence document")
            codes |= {("baseline", base_code), ("evidence", code)}
        document = json.loads(evidence.read_text())
        collected = document["session"]["collected"]
        marked = sum(1 for entry in document["tests"].values() if entry["reqs"])
    return {"baseline_s": statistics.median(base), "evidence_s": statistics.median(rec),
            "baseline_cpu_s": statistics.median(base_cpu), "evidence_cpu_s": statistics.median(rec_cpu),
            "exit_codes": sorted(codes), "collected": collected, "marked": marked, "rounds": rounds}


def overhead_line(project: Path, result: dict) -> str:
    """One line: tests, medians (wall, then CPU) and the relative overheads."""
    base, rec = result["baseline_s"], result["evidence_s"]
    pct = 100.0 * (rec - base) / base if base else 0.0
    base_cpu, rec_cpu = result["baseline_cpu_s"], result["evidence_cpu_s"]
    ratio = rec_cpu / base_cpu if base_cpu else 0.0
    return (f"plugin overhead  {project.name}: {result['collected']} tests ({result['marked']} marked), "
            f"plugin inert {base:.2f}s, "
            f"with evidence {rec:.2f}s ({pct:+.1f}%), CPU {base_cpu:.2f}s -> {rec_cpu:.2f}s ({ratio:.2f}x), "
            f"median of {result['rounds']} rounds, "
            f"exit codes {', '.join(f'{k}={c}' for k, c in result['exit_codes'])}")


def run_plugin_overhead(project: str, rounds: int, extra: list[str], mark_tests: int | None = None) -> int:
    """Measure and print the overhead line (a round that could not be measured raises)."""
    path = Path(project).resolve()
    if not path.is_dir():
        raise InputError(f"--plugin-overhead: {project} is not a directory")
    if rounds < 1:
        raise InputError("--rounds must be at least 1")
    if mark_tests is not None and mark_tests < 1:
        raise InputError("--mark-tests must be at least 1")
    print(overhead_line(path, measure(path, rounds, extra, mark_tests)), flush=True)
    return EXIT_OK
