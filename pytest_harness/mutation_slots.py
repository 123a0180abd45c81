"""Where each test's run on the original code goes among the mutant runs that list it (#47).

Its own module, free of pytest: the harness's queue (harness/audit/originals.py) places these runs
for lanes that share it, in the harness's process, which otherwise never imports pytest — importing
it there (through mutation_runner) cost 0.15-0.45 s on the audit's critical path, between its plan
and its first mutant. mutation_runner re-exports OriginalSlots for the single-session audit.
"""

from __future__ import annotations

import secrets
from collections import Counter


class OriginalSlots:
    """When the original code runs each test (#47: its place must not tell it apart): between two of
    the mutant runs that list the test — before its k-th run and after its (k-1)-th, k equally
    likely among its runs — never after the last, the old fixed place. Chosen online, so a time
    box or a queue can end the runs early: when a test's run is handed out (and at the start, for
    its first run), whether its original run goes before its *next* run is drawn with probability
    1/r, r its runs still to come; such a test is "open". A test counting its own runs then finds
    the original at any of its first m runs, each equally likely, never the (m+1)th.

    The original code runs in forks of its own, and each fork pays the tests' first-use cost again
    (session fixtures, the app's routes, the first request: most of a short test's time). So when
    an open test's next run is about to be handed out, every open test goes into that one fork —
    each still after its own previous run and before its own next one, so what any test can see of
    its own runs is unchanged — instead of one fork before each test's own run: on the Todo build's
    plan ~5 forks instead of ~10 (tests/test_original_run_indistinguishable.py).

    One session uses it over its own order; with lanes on one queue the harness uses it over the
    whole queue (harness/audit/originals.py), so each test runs on the original once per audit.
    Draws from the system's random source (`draw`, a seam for tests), in the process that
    chooses: written to no file."""

    def __init__(self, order: list, lanes: int = 1, draw=secrets.randbelow):
        self.left = Counter(n for _, _, tests in order for n in set(tests))
        self.lanes = max(1, int(lanes or 1))
        self.draw = draw
        self.open: set[str] = set()     # tests whose original run goes before their next run
        self.placed: set[str] = set()   # tests handed out to run on the original
        for n in sorted(self.left):
            self._decide(n)

    def _decide(self, n: str) -> None:
        """Whether `n`'s original run goes before its next run: 1/r, r its runs still to come."""
        runs = -(-self.left[n] // self.lanes)
        if runs > 0 and self.draw(runs) == 0:
            self.open.add(n)

    def before(self, tests: list[str], done: set[str]) -> list[str]:
        """The tests to run on the original code before the mutant run listing `tests` starts: when
        one of them is open (this is its next run), every open test; else none."""
        names = list(dict.fromkeys(tests))
        self.open -= done
        due = any(n in self.open for n in names)
        chosen = sorted(self.open) if due else []
        if due:
            self.placed.update(chosen)
            self.open.clear()
        for n in names:
            self.left[n] = max(0, self.left[n] - self.lanes)
            if n not in done and n not in self.placed and n not in self.open:
                self._decide(n)
        return chosen

    def skip(self, tests: list[str]) -> None:
        """A run listing `tests` that will not happen (the time box skipped it): an open test's
        draw was for this run, so it is drawn again for the next one, as if this run never was."""
        for n in set(tests):
            self.left[n] = max(0, self.left[n] - self.lanes)
            if n not in self.placed:
                self.open.discard(n)
                self._decide(n)

    def give_back(self, tests: list[str], chosen: list[str]) -> None:
        """A run handed out and lost (its lane's session was retried), with the tests placed before
        it (`chosen`): the run comes again, and those tests are open again, before it."""
        for n in set(tests):
            self.left[n] += self.lanes
        for n in chosen:
            self.placed.discard(n)
            self.open.add(n)
