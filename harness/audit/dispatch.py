"""One queue of mutants for all the audit's lanes (the harness's side of pytest_harness/mutation_dispatch.py).

With a static split each lane judges the requirements it was given, and the lanes end tens to
hundreds of milliseconds apart: what a mutant costs is known only once it has run (a killed one
stops at its first failing test; a fork's first test pays its fixtures). Here every lane holds
every mutant in its copy and asks for the next one when it is free, in the plan's order, so the
lanes end within about one mutant of each other.

The time box is applied here, over every lane's verdicts, exactly as one session applies it
(`admit`): within the box every mutant runs; past it a requirement goes on while its verdict is
still open (pytest_harness/time_box.py: settled), until GRACE_FACTOR x the box. Past the box, a requirement with a mutant
still running in another lane waits for that verdict before its next mutant is decided (an
unknown verdict must not let the box decide "0/1 killed"). A lane that says hello again (a
retried session) gives its unfinished mutant back to the queue. Nothing a lane sends is trusted
beyond the queue: verdicts are read from its digest-checked result file.
"""

from __future__ import annotations

import json
import os
import select
import threading
import time
from collections import Counter
from collections.abc import Callable

Entry = tuple[str, int, list[str]]
_MAX_LINE = 1 << 16
_STOP_POLL_S = 0.5   # how often a server with nothing to read checks that its lane's session ended


class Dispatcher:
    """The pending mutants of one audit and what the lanes told of them."""

    def __init__(self, order: list[Entry], seconds: float, grace_factor: float,
                 admit: Callable[[float, float, dict[str, str], str, int], str], draw=None,
                 decoys: frozenset[int] | set[int] = frozenset()):
        from harness.audit.originals import Originals

        self.decoys = frozenset(decoys)   # entries that are decoys (pytest_harness/decoys.py): known here only
        self.pending: list[Entry] = list(order)
        self.originals = Originals(order, **({"draw": draw} if draw is not None else {}))
        self.first: dict[int, list[str]] = {}   # per lane: the tests its mutant in flight runs on the original first
        self.following: dict[int, dict] = {}    # per lane: the follow-up it runs (originals.py)
        self.jobs: list[dict] = []              # follow-ups not handed out yet
        self.planned = Counter(entry[0] for entry in order if entry[1] not in self.decoys)   # mutants per requirement
        self.seconds, self.grace, self.admit = seconds, grace_factor * seconds, admit
        self.results: dict[str, str] = {}
        self.in_flight: dict[int, Entry] = {}
        self.started: float | None = None
        self._cond = threading.Condition()

    def hello(self, lane: int) -> None:
        with self._cond:
            if self.started is None:
                self.started = time.monotonic()
            lost = self.in_flight.pop(lane, None)
            if lost is not None:   # a retried session: its unfinished mutant goes back first
                self.pending.insert(0, lost)
                self.originals.give_back(lost[2], self.first.pop(lane, []))
            self.following.pop(lane, None)
            self._cond.notify_all()

    def done(self, lane: int, key: str, status: str) -> None:
        with self._cond:
            entry = self.in_flight.get(lane)
            if entry is not None and f"{entry[0]}:{entry[1]}" == key:
                self.in_flight.pop(lane)
                self.results[key] = status
            self._cond.notify_all()

    def record(self, lane: int, found: dict) -> None:
        """What the lane ran for its last job (mutants and original runs: originals.py)."""
        with self._cond:
            self.originals.record(found)
            self._cond.notify_all()

    def gone(self, lane: int) -> None:
        """The lane's session ended: what it was running is not judged."""
        with self._cond:
            self.in_flight.pop(lane, None)
            self.following.pop(lane, None)
            self._cond.notify_all()

    def next_entry(self, lane: int) -> Entry | None:
        with self._cond:
            if self.started is None:
                self.started = time.monotonic()
            while self.pending:
                rid = self.pending[0][0]
                elapsed = time.monotonic() - self.started
                mutants = {k: v for k, v in self.results.items() if int(k.rsplit(":", 1)[1]) not in self.decoys}
                decision = ("run" if self.pending[0][1] in self.decoys   # a decoy always runs: the box
                            else self.admit(elapsed, self.seconds, mutants, rid, self.planned[rid]))  # judges mutants
                if decision == "stop":
                    self.pending = [entry for entry in self.pending if entry[1] in self.decoys]
                    continue
                if decision == "skip" and any(e[0] == rid for e in self.in_flight.values()):
                    self._cond.wait(timeout=max(0.0, self.grace - elapsed))   # its verdict decides
                    continue
                entry = self.pending.pop(0)
                if decision == "run":
                    self.in_flight[lane] = entry
                    self.first[lane] = self.originals.place(entry[2])
                    return entry
                self.originals.skip(entry[2])
            return None

    def next_job(self, lane: int) -> dict | None:
        """The lane's next job as the queue's answer: a mutant (with the tests to run on the original
        code first), else once every lane's mutant has ended a follow-up (originals.py), else None."""
        with self._cond:
            self.following.pop(lane, None)   # a lane asks only once its last job ended
            while not self.originals.timed_out:   # an original run past its limit: nothing is judged
                entry = self.next_entry(lane)
                if entry is not None:
                    return {"run": [entry[0], entry[1], entry[2]], "original": self.first.get(lane, [])}
                if self.jobs:
                    self.following[lane] = self.jobs.pop(0)
                    return self.following[lane]
                if self.in_flight or self.following:
                    self._cond.wait(timeout=_STOP_POLL_S)   # their records decide what is still needed
                    continue
                self.jobs = self.originals.follow_ups()
                if not self.jobs:
                    return None
            return None


def serve(dispatcher: Dispatcher, lane: int, ask_fd: int, answer_fd: int, stop: threading.Event) -> None:
    """Answer one lane until its end of the ask pipe closes, or `stop` is set once its session
    ended (a straggler holding that end never keeps this thread; run in a thread)."""
    buffer = b""
    try:
        while True:
            if not select.select([ask_fd], [], [], _STOP_POLL_S)[0]:
                if stop.is_set():
                    return
                continue
            chunk = os.read(ask_fd, 4096)
            if not chunk:
                return
            buffer += chunk
            if len(buffer) > _MAX_LINE and b"\n" not in buffer:
                return   # not our protocol: stop answering (the lane's session ends with its plan)
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                reply = _handle(dispatcher, lane, line)
                if reply is not None:
                    _write(answer_fd, reply)
    except OSError:
        return
    finally:
        dispatcher.gone(lane)


def _handle(dispatcher: Dispatcher, lane: int, line: bytes) -> dict | None:
    try:
        message = json.loads(line)
    except ValueError:
        return {"end": True}
    if not isinstance(message, dict):
        return {"end": True}
    if message.get("hello"):
        dispatcher.hello(lane)
        return None
    if isinstance(message.get("record"), dict):   # before `done`: a lane waiting on this one then sees both
        dispatcher.record(lane, message["record"])
    done = message.get("done")
    if isinstance(done, list) and len(done) == 2 and all(isinstance(x, str) for x in done):
        dispatcher.done(lane, done[0], done[1])
    job = dispatcher.next_job(lane)
    return {"end": True} if job is None else job


def _write(fd: int, message: dict) -> None:
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(fd, data):]


class LanePipes:
    """The two pipes of one lane: it asks on one and reads answers on the other."""

    def __init__(self) -> None:
        self.ask_read, self.ask_write = os.pipe()
        self.answer_read, self.answer_write = os.pipe()
        os.set_inheritable(self.ask_write, True)
        os.set_inheritable(self.answer_read, True)

    @property
    def lane_fds(self) -> tuple[int, int]:
        """(ask, answer): the descriptors the lane's session inherits."""
        return self.ask_write, self.answer_read

    def close_lane_side(self) -> None:
        """After the session: our copies of its ends go, so the server reads the end of the pipe."""
        for fd in (self.ask_write, self.answer_read):
            _close(fd)

    def close(self) -> None:
        for fd in (self.ask_read, self.answer_write):
            _close(fd)


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass
