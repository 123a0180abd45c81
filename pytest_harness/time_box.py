"""The mutation audit's time box, shared by the lane sessions (mutation_runner.py) and the harness's
queue (harness/audit/dispatch.py). No pytest import: the harness's CLI imports this at start, and
`import pytest` cost every `builder` process ~55-85 ms (`python -X importtime -m harness.cli`)."""

from __future__ import annotations

GRACE_FACTOR = 2.0          # past the time box, a requirement whose verdict is open runs on until this x seconds
# The mutation bar (#47): of a requirement's judged mutants (killed + survived), at least this share
# must be killed (and at least one). harness/trace/evidence_checks.py judges by it.
KILL_RATIO = 0.5
# What a mutant's verdict counts as (pytest_harness/mutation_child.py says when each is given):
# killed only when a test's check failed ("failed") or its call phase hung ("timeout"); "invalid"
# (a fixture/conftest error, an ImportError, a crash) and "error" are neither killed nor survived.
KILLED = frozenset({"failed", "timeout"})
JUDGED = KILLED | {"passed"}
INVALID = frozenset({"invalid", "error"})


def admit(elapsed: float, seconds: float, results: dict[str, str], rid: str, planned: int) -> str:
    """run / skip / stop for `rid`'s next mutant (`planned`: how many mutants the plan gives `rid`):
    within the time box every mutant runs; past it a requirement goes on while its verdict is still
    open, until GRACE_FACTOR x the time box. Past the box only a requirement whose verdict is settled
    — the same whatever its remaining mutants turn out to be — skips the rest: the box may save time,
    never choose a verdict (one killed of one judged with three to run is not settled: 1/4 misses)."""
    if elapsed >= GRACE_FACTOR * seconds:
        return "stop"
    if elapsed >= seconds and settled(results, rid, planned):
        return "skip"
    return "run"


def counts(results: dict[str, str], rid: str) -> tuple[int, int, int]:
    """(killed, judged, with any result) of `rid`'s mutants in `results` ("REQ:id" -> result)."""
    mine = [r for key, r in results.items() if key.split(":", 1)[0] == rid]
    return sum(r in KILLED for r in mine), sum(r in JUDGED for r in mine), len(mine)


def meets(killed: int, judged: int) -> bool:
    """The mutation bar: at least one kill and at least KILL_RATIO of the judged mutants killed."""
    return killed >= 1 and killed >= KILL_RATIO * judged


def open_verdict(killed: int, judged: int, rest: int) -> bool:
    """Whether `rest` mutants not yet run could still change the verdict: it misses the bar if they
    all survive and meets it if they are all killed (an invalid one lands in between: it changes
    neither figure)."""
    return rest > 0 and not meets(killed, judged + rest) and meets(killed + rest, judged + rest)


def settled(results: dict[str, str], rid: str, planned: int) -> bool:
    """Whether `rid`'s verdict no longer depends on its mutants not yet run."""
    killed, judged, seen = counts(results, rid)
    return not open_verdict(killed, judged, max(0, planned - seen))


BOX_FACTOR = 3.0   # the box is at least this many times the expected cost of the planned mutant runs
FORK_S = 0.1       # one mutant's own cost beside its tests (fork, apply, report), at the least


def box_seconds(seconds: float, order: list, test_s: dict[str, float], lanes: int) -> float:
    """The time box of one audit: at least `seconds`, and at least BOX_FACTOR x what its planned
    mutant runs (`order`: (requirement, id, tests)) are expected to cost now — each running all its
    tests, as a survivor does, at the durations this run's own whole-suite session measured
    (`test_s`), over `lanes` lanes. A loaded machine slows the suite and the mutants alike, so the
    box grows with the load instead of cutting the audit short."""
    cost = sum(FORK_S + sum(float(test_s.get(t) or 0.0) for t in tests) for _, _, tests in order)
    return max(seconds, BOX_FACTOR * cost / max(1, lanes))
