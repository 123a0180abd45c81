"""Generated suites run the way the harness verifies a workspace: `python -m pytest ARGS` forked by a
warm verification worker (harness/speed/warm/workers.py) inside the sandbox, cold (runner.execute, the
same containment) when the worker cannot serve it — exactly the harness's own rule.

Tests that run many generated suites (every unit of the seed app, the nasty-name apps, other
domains) pay pytest's and fastapi's imports once per worker instead of once per suite. As the
verifier does (harness/verification/plugins.py), every installed pytest plugin the workspace's
requirements.txt does not bring is disabled (`-p no:NAME`): the hypothesis plugin alone imported
hypothesis, ~73 modules assertion-rewritten from source, at the end of every suite (~1-2 s here).
test_warm_worker proves that a warm and a cold run of the same workspace give the same outcomes
and evidence, so the suites' verdicts do not depend on it. The workspaces live under `base`, which
the sandbox binds read-only; evidence files a suite writes go under `out` (bound writable as
HARNESS_SHARED_DIR while the fixture lives).
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from harness.sandbox import runner
from harness.speed.warm import workers as warm
from harness.verification.plugins import disable_args
from harness.verification.verifier import verification_env

SUITE_ENV = verification_env("")  # what the verifier gives a verification command (no run)


class WarmSuites:
    """Up to `lanes` warm workers over `base`; `run` serves one suite, `run_all` several in parallel."""

    def __init__(self, base: Path, lanes: int = 1, out: Path | None = None):
        self.base = Path(base)
        self.out = Path(out) if out is not None else self.base
        self.lanes = lanes
        self._idle: list[warm.WarmWorker | None] = [None] * lanes
        self._lock = threading.Lock()
        self.runners: list[str] = []  # "warm" / "cold" per suite run, for the curious

    def run(self, root: Path, *args: str, timeout_s: float = 300, lane: int = 0) -> runner.ExecResult:
        """`python -m pytest ARGS` with cwd `root` (under base): its ExecResult (stdout/stderr tails)."""
        requirements = root / "requirements.txt"
        argv = [sys.executable, "-m", "pytest", *args,
                *disable_args(requirements.read_text(encoding="utf-8") if requirements.is_file() else "")]
        worker = self._worker(lane)
        if worker is not None and warm.eligible(argv, root, worker.covers):
            result = warm.execute_warm(worker, argv, cwd=root, env=SUITE_ENV, timeout_s=timeout_s)
            if result is not None:
                self._record("warm")
                return result
            self._idle[lane] = None  # it crashed and was discarded: the next suite starts a new one
        self._record("cold")
        return runner.execute(argv, workspace=self.base, cwd=root, env=SUITE_ENV, timeout_s=timeout_s)

    def run_all(self, jobs: dict[str, tuple[Path, tuple[str, ...]]], timeout_s: float = 300) -> dict[str, runner.ExecResult]:
        """{name: (root, args)} -> {name: ExecResult}, `lanes` suites at a time."""
        names = list(jobs)
        results: dict[str, runner.ExecResult] = {}

        def lane_loop(lane: int) -> None:
            while True:
                with self._lock:
                    if not names:
                        return
                    name = names.pop(0)
                root, args = jobs[name]
                results[name] = self.run(root, *args, timeout_s=timeout_s, lane=lane)

        threads = [threading.Thread(target=lane_loop, args=(lane,)) for lane in range(self.lanes)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return {name: results[name] for name in jobs}

    def close(self) -> None:
        for lane, worker in enumerate(self._idle):
            if worker is not None:
                warm.discard(worker)
            self._idle[lane] = None

    def _worker(self, lane: int) -> warm.WarmWorker | None:
        if not warm.warm_enabled():
            return None
        worker = self._idle[lane]
        if worker is None or not worker.alive():
            try:
                worker = warm.WarmWorker(self.base, SUITE_ENV)
            except (RuntimeError, runner.SpawnError, OSError):
                return None
            self._idle[lane] = worker
        return worker

    def _record(self, how: str) -> None:
        with self._lock:
            self.runners.append(how)


@pytest.fixture(scope="module")
def suites(tmp_path_factory):
    """Generated suites run as the harness verifies them: forked by a warm worker (import this
    fixture into a test module: `from warm_suites import suites`)."""
    out = tmp_path_factory.mktemp("suites-out")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HARNESS_SHARED_DIR", str(out))  # the only place a suite may write (its evidence)
        pool = WarmSuites(tmp_path_factory.mktemp("suites"), out=out)
        yield pool
        pool.close()
