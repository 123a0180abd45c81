"""Where an audit lane's next mutant comes from (used by pytest_harness/mutation_runner.py).

`StaticOrder` walks the plan's own order and applies the time box itself (`admit`), as a single
session does. `DispatchedOrder` asks the harness for each next mutant over two inherited pipes
(the plan's `"dispatch": [ask_fd, answer_fd]`, harness/audit/dispatch.py): the lanes of an audit
then share one queue, so none sits idle while another still has mutants, and the harness applies
the time box to every lane's verdicts at once. Messages are JSON lines: the lane sends
`{"hello": true}` once, then `{"done": [key, status] or null, "record": {...}}` to ask for the
next (`record`: what its last job ran, pytest_harness/mutation_lane.py); the harness answers
`{"run": [requirement, mutant id, [test ids]], "original": [test ids]}` (run those on the original
code first: the harness places each test's one original run, harness/audit/originals.py), after
the mutants a follow-up `{"original": [test ids]}` or `{"again": [requirement, mutant id, [test
ids]], "round": n}`, or `{"end": true}`. A lane that cannot read an answer stops taking mutants
(what it recorded so far stands). The forked children never hold these descriptors
(`private_fds`, closed first thing in a child).
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator

Entry = tuple[str, int, list[str]]


class StaticOrder:
    """The plan's order, filtered by the time box over this session's verdicts."""

    def __init__(self, order: list, seconds: float, results: dict[str, str],
                 admit: Callable[[float, float, dict[str, str], str, int], str], started: float,
                 stopped: Callable[[], bool] = lambda: False):
        self.order, self.seconds, self.results, self.admit = order, seconds, results, admit
        self.started, self.stopped = started, stopped
        self.planned = Counter(entry[0] for entry in order)   # mutants per requirement

    def __iter__(self) -> Iterator[Entry]:
        for rid, mutant_id, tests in self.order:
            decision = "stop" if self.stopped() else self.admit(time.monotonic() - self.started, self.seconds,
                                                                  self.results, rid, self.planned[rid])
            if decision == "stop":
                return
            if decision == "run":
                yield rid, mutant_id, tests

    def report(self, key: str, status: str) -> None:
        """Nothing to tell: this session applies the time box itself."""


class DispatchedOrder:
    """The harness's queue: each next mutant asked for, each verdict told. With a mutant the harness
    may name tests to run on the original code first (`first`: it places each test's one original
    run over all the lanes, harness/audit/originals.py); after the mutants it may hand out what the
    verdicts still need (`follow_ups`)."""

    def __init__(self, ask_fd: int, answer_fd: int):
        self.ask_fd, self.answer_fd = ask_fd, answer_fd
        self._done: list | None = None
        self._record: dict | None = None
        self._buffer = b""
        self._stash: dict | None = None   # the answer that ended the mutants: a follow-up or the end
        self.first: list[str] = []        # the tests to run on the original code before this mutant

    def __iter__(self) -> Iterator[Entry]:
        if not self._send({"hello": True}):
            return
        while True:
            answer = self._ask()
            run = answer.get("run") if isinstance(answer, dict) else None
            if not (isinstance(run, list) and len(run) == 3):
                self._stash = answer
                return
            first = answer.get("original")
            self.first = [str(t) for t in first] if isinstance(first, list) else []
            rid, mutant_id, tests = run
            yield str(rid), int(mutant_id), [str(t) for t in tests]

    def follow_ups(self) -> Iterator[dict]:
        """After the mutants: `{"original": [tests]}` (run them on the original code) or
        `{"again": [requirement, mutant id, [tests]], "round": n}` (judge a mutant again), until the end."""
        answer, self._stash = self._stash, None
        while isinstance(answer, dict) and (isinstance(answer.get("original"), list)
                                            or (isinstance(answer.get("again"), list) and len(answer["again"]) == 3)):
            yield answer
            answer = self._ask()

    def report(self, key: str | None, status: str | None, record: dict | None = None) -> None:
        """What the last job found: its mutant's key and status (the time box), and `record`, what it
        ran (harness/audit/originals.py: which follow-ups the verdicts need)."""
        self._done = [key, status] if key is not None else None
        self._record = record

    def _ask(self) -> dict | None:
        done, self._done = self._done, None
        record, self._record = self._record, None
        message = {"done": done, **({"record": record} if record is not None else {})}
        return self._answer() if self._send(message) else None

    def _send(self, message: dict) -> bool:
        data = (json.dumps(message) + "\n").encode()
        try:
            while data:
                data = data[os.write(self.ask_fd, data):]
        except OSError:
            return False
        return True

    def _answer(self) -> dict | None:
        while b"\n" not in self._buffer:
            try:
                chunk = os.read(self.answer_fd, 1 << 16)
            except OSError:
                return None
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return None


def receive_plan(plan: dict) -> dict | None:
    """A deferred plan's rest (`"deferred": true`: the lane's session was started before the evidence
    it audits existed, see harness/speed/lanes_ahead.py): the first answer on the queue's pipe,
    `{"plan": {...}}`, merged into `plan`; None on `{"end": true}`, anything else, or the pipe's end
    (the harness gave the lane up: it ends without a result)."""
    fds = plan.get("dispatch")
    if not (isinstance(fds, list) and len(fds) == 2 and all(isinstance(fd, int) for fd in fds)):
        return None
    rest = DispatchedOrder(fds[0], fds[1])._answer()
    got = rest.get("plan") if isinstance(rest, dict) else None
    if not isinstance(got, dict):
        return None
    return {**plan, **got, "deferred": False}


def order_source(plan: dict, results: dict[str, str], admit, started: float,
                 stopped: Callable[[], bool] = lambda: False):
    """The plan's source of mutants: the harness's queue when the plan names its pipes, else its
    order, time-boxed from `started` (the monotonic time the session's audit began)."""
    fds = plan.get("dispatch")
    if isinstance(fds, list) and len(fds) == 2 and all(isinstance(fd, int) for fd in fds):
        return DispatchedOrder(fds[0], fds[1])
    return StaticOrder(plan["order"], plan["seconds"], results, admit, started, stopped)


def private_fds(plan: dict) -> tuple[int, ...]:
    """The descriptors a forked child must not keep (the harness's queue)."""
    fds = plan.get("dispatch")
    return tuple(fd for fd in fds if isinstance(fd, int)) if isinstance(fds, list) else ()
