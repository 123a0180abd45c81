"""The mutation audit's time box, shared by the lane sessions (mutation_runner.py) and the harness's
queue (harness/audit/dispatch.py). No pytest import: the harness's CLI imports this at start, and
`import pytest` cost every `builder` process ~55-85 ms (`python -X importtime -m harness.cli`)."""

from __future__ import annotations

GRACE_FACTOR = 2.0          # past the time box, a requirement under the bar runs on until this x seconds
# The mutation bar (#47): of a requirement's judged mutants (killed + survived), at least this share
# must be killed (and at least one). harness/trace/evidence_checks.py judges by it.
KILL_RATIO = 0.5
# What a mutant's verdict counts as (pytest_harness/mutation_child.py says when each is given):
# killed only when a test's check failed ("failed") or its call phase hung ("timeout"); "invalid"
# (a fixture/conftest error, an ImportError, a crash) and "error" are neither killed nor survived.
KILLED = frozenset({"failed", "timeout"})
JUDGED = KILLED | {"passed"}
INVALID = frozenset({"invalid", "error"})


def admit(elapsed: float, seconds: float, results: dict[str, str], rid: str) -> str:
    """run / skip / stop for `rid`'s next mutant: within the time box every mutant runs; past it only
    a requirement under the bar so far goes on, until GRACE_FACTOR x the time box."""
    if elapsed >= GRACE_FACTOR * seconds:
        return "stop"
    if elapsed >= seconds and not _under_the_bar(results, rid):
        return "skip"
    return "run"


def _under_the_bar(results: dict[str, str], rid: str) -> bool:
    """Whether `rid` has judged mutants and kills less than KILL_RATIO of them: the time box must not
    be what decides that (one run mutant that survived, three not run, is not '0/1 killed'; one of
    three killed, one more to run, may be two of four)."""
    mine = [r for key, r in results.items() if key.split(":", 1)[0] == rid and r in JUDGED]
    killed = sum(r in KILLED for r in mine)
    return bool(mine) and killed < KILL_RATIO * len(mine)
