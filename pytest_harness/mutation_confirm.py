"""Which mutant verdicts still need the original code: the audit's baseline. The runner runs each
test a mutant run lists on the original code at a random place among those runs
(mutation_runner.OriginalSlots); what is below decides what still needs a run after them (a test
the queue or the time box left without its place) and which verdicts are judged again.

A mutant is killed when one of its requirement's tests fails against it, but only if that test
passes on the unmutated scratch copy: a test that fails there anyway (a broken scratch setup, a
test that depends on something the copy lacks) would "kill" every mutant and prove nothing. The
reference method runs every planned test on the original code first. The default method runs the
mutants first and then confirms, in one fork, only the tests whose outcome a verdict rests on:

- a killed mutant: the test that failed first (the child stops there);
- a surviving mutant: one of its tests passing on the original code (with none it is unjudged,
  as with the baseline first): one confirmed, or being confirmed, for another verdict, else its
  fastest test not confirmed yet;
- a timeout or an internal error: every test it ran (which one hung is unknown);
- a mutant judged again: every test it ran.

A verdict that rests on a test the original code fails is judged again without the tests that
failed there, exactly as the baseline-first method would have run it; that run may need another
confirmation, until nothing new is needed. The verdicts are the baseline-first method's; only the
tests that no verdict depends on are not run on the original code.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class MutantRun:
    """One fork's run of a mutant: the tests it was given, its status, the tests that failed."""

    items: list[str]       # fastest first (the plan's order)
    status: str            # passed / failed / timeout / error
    failed: list[str]      # in order; a stopping child reports only the first
    again: bool = False    # judged again: its first kill rested on a test that fails on the original


def needs(run: MutantRun, confirmed: set[str], broken: set[str], wanted: set[str] = frozenset()) -> set[str]:
    """The tests to run on the original code before `run` has its verdict (`confirmed`: run there
    already, `broken`: the ones that failed there, `wanted`: being confirmed for other verdicts).
    A run judged again rests on all its tests: they fail on the original code, so the next may too
    (a broken scratch setup), and confirming them one at a time would take a fork per test."""
    if run.status == "failed" and run.failed and not run.again:
        return set(run.failed[:1]) - confirmed
    if run.status == "passed":
        if any(n not in broken and (n in confirmed or n in wanted) for n in run.items):
            return set()
        return set([n for n in run.items if n not in confirmed][:1])
    return set(run.items) - confirmed


def to_confirm(runs: dict[str, MutantRun], confirmed: set[str], broken: set[str] = frozenset()) -> list[str]:
    """What the next confirmation fork runs, sorted (the baseline's order): what kills, timeouts and
    errors rest on, then for each survivor a test of its own only when none of those will do."""
    wanted: set[str] = set()
    for run in runs.values():
        if run.status != "passed":
            wanted |= needs(run, confirmed, broken)
    for run in runs.values():
        if run.status == "passed":
            wanted |= needs(run, confirmed, broken, wanted)
    return sorted(wanted)


def verdict(run: MutantRun, broken: set[str]) -> str | None:
    """The final verdict of a run that `needs` nothing more, given the tests that fail on the
    original code; None: judge it again without them (its outcome came, or may have come, from one)."""
    kept = [n for n in run.items if n not in broken]
    if not kept:
        return "unjudged"
    if run.status == "passed":
        return "passed"      # a kept test passes on the original: the baseline-first run saw it survive
    if run.status == "failed" and run.failed and not run.again:
        return None if run.failed[0] in broken else "failed"
    return run.status if len(kept) == len(run.items) else None


def without(run: MutantRun, broken: set[str]) -> list[str]:
    """The tests a judged-again run gets: `run`'s minus the ones that fail on the original code."""
    return [n for n in run.items if n not in broken]


def settle(runs: dict[str, MutantRun], broken: set[str], confirmed: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """({key: verdict}, {key: the test whose check killed it}) of runs whose confirmations are done:
    `verdict`, or the run's own status when it needs judging again and was not. A run still
    needing a test on the original code (its run there was lost with a lane's session) is
    `error`: neither killed nor survived on what it rests on."""
    results = {}
    for key, run in runs.items():
        results[key] = "error" if needs(run, confirmed, broken) else (verdict(run, broken) or run.status)
    killers = {key: run.failed[0] for key, run in runs.items() if results[key] == "failed" and run.failed}
    return results, killers


def run_record(key: str, run: MutantRun, round_: int, duration_s: float) -> dict:
    """A mutant run as a lane's result file lists it (harness/audit/originals.py reads it back)."""
    return {"key": key, "items": run.items, "status": run.status, "failed": run.failed, "again": run.again,
            "round": round_, "duration_s": round(duration_s, 3)}


def from_record(record: dict) -> MutantRun:
    return MutantRun([str(n) for n in record.get("items") or []], str(record.get("status")),
                     [str(n) for n in record.get("failed") or []], bool(record.get("again")))
