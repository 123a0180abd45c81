"""One audit lane of several on the harness's queue (the confirm method; used by mutation_runner.py).

With one session the runner places each test's run on the original code itself (confirm_after,
OriginalSlots over its own order). Lanes that take their mutants from one queue each saw only part
of a test's runs, so each ran the test on the original once: with two lanes about a third of the
audit's forks were the same test's original run again. Here the harness places the runs instead
(harness/audit/originals.py): with each mutant it names the tests to run on the original code
first — each test once per audit, before one of all the lanes' runs that list it, each equally
likely — and after the mutants it hands out what the verdicts still need (a test no run placed,
a mutant to judge again without the tests that fail on the original). The lane judges nothing:
it records what it ran, its result file lists those records, and the harness settles the
verdicts from every lane's digest-checked file (mutation_confirm.settle), as one session would.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import pytest
from pytest_harness.mutation_confirm import MutantRun, run_record
from pytest_harness.mutation_dispatch import order_source
from pytest_harness.time_box import admit


@dataclass(frozen=True)
class LaneRunner:
    """How a lane runs tests, handed in by the runner (mutation_runner.py) so this module needs
    nothing of it: the original runs, the forked mutant runs, a child's time limit."""

    min_timeout_s: float
    run_baseline: Callable
    fork_run: Callable
    child_limit: Callable
    original_id: Callable


def confirm_in_lane(plan: dict, by_id: dict[str, pytest.Item], runner: LaneRunner) -> dict:
    """Run the mutants and original runs the queue hands this lane; {"records": {"runs", "originals"}}."""
    MIN_TIMEOUT_S, run_baseline, fork_run = runner.min_timeout_s, runner.run_baseline, runner.fork_run
    child_limit, original_id = runner.child_limit, runner.original_id
    started, test_s, original = time.monotonic(), plan["test_s"], original_id(plan)
    runs: list[dict] = []
    originals: list[dict] = []

    def on_original(tests: list[str]) -> dict:
        t0 = time.monotonic()
        got, failed = run_baseline([by_id[n] for n in tests], max(plan["seconds"], MIN_TIMEOUT_S), original)
        originals.append({"tests": tests, "status": got, "broken": failed,
                          "duration_s": round(time.monotonic() - t0, 3)})
        return originals[-1]

    def judge(rid: str, mutant_id: int, tests: list[str], round_: int) -> dict:
        key, nodeids, t0 = f"{rid}:{mutant_id}", [n for n in tests if n in by_id], time.monotonic()
        if nodeids:
            status, failed, _errored = fork_run([by_id[n] for n in nodeids], mutant_id, child_limit(nodeids, test_s))
        else:
            status, failed = "unjudged", []
        runs.append(run_record(key, MutantRun(nodeids, status, failed, round_ > 0), round_, time.monotonic() - t0))
        return runs[-1]

    source = order_source(plan, {}, admit, started)
    for rid, mutant_id, tests in source:
        found: dict = {}
        first = [n for n in source.first if n in by_id]
        if first:
            found["original"] = on_original(first)
            if found["original"]["status"] == "timeout":   # nothing is judged: the harness ends the audit
                source.report(f"{rid}:{mutant_id}", "timeout", found)
                continue
        found["run"] = judge(rid, mutant_id, tests, 0)
        source.report(found["run"]["key"], found["run"]["status"], found)
    for job in source.follow_ups():
        if isinstance(job.get("original"), list):
            need = [str(n) for n in job["original"] if str(n) in by_id]
            source.report(None, None, {"original": on_original(need)} if need else {})
        else:
            rid, mutant_id, tests = job["again"]
            found = judge(str(rid), int(mutant_id), [str(t) for t in tests], max(1, int(job.get("round") or 1)))
            source.report(None, None, {"run": found})
    raw = {run["key"]: run["status"] for run in runs}   # what each run found here, before the harness settles it
    return {"results": raw, "killers": {}, "durations": {}, "records": {"runs": runs, "originals": originals},
            "baseline": {"method": "confirm"}, "duration_s": round(time.monotonic() - started, 3)}
