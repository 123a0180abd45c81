"""The mutation audit's time box, shared by the lane sessions (mutation_runner.py) and the harness's
queue (harness/audit/dispatch.py). No pytest import: the harness's CLI imports this at start, and
`import pytest` cost every `builder` process ~55-85 ms (`python -X importtime -m harness.cli`)."""

from __future__ import annotations

GRACE_FACTOR = 2.0          # past the time box, a requirement with only surviving mutants runs on until this x seconds


def admit(elapsed: float, seconds: float, results: dict[str, str], rid: str) -> str:
    """run / skip / stop for `rid`'s next mutant: within the time box every mutant runs; past it only
    a requirement whose judged mutants all survived goes on, until GRACE_FACTOR x the time box."""
    if elapsed >= GRACE_FACTOR * seconds:
        return "stop"
    if elapsed >= seconds and not _only_survivors(results, rid):
        return "skip"
    return "run"


def _only_survivors(results: dict[str, str], rid: str) -> bool:
    """Whether `rid` has judged mutants and every one survived: the time box must not be what decides
    that its tests detect nothing (one run mutant that survived, three not run, is not '0/1 killed')."""
    mine = [r for key, r in results.items() if key.split(":", 1)[0] == rid and r != "unjudged"]
    return bool(mine) and all(r == "passed" for r in mine)
