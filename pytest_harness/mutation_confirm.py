"""Which mutant verdicts still need the original code: the audit's baseline, run after the mutants.

A mutant is killed when one of its requirement's tests fails against it, but only if that test
passes on the unmutated scratch copy: a test that fails there anyway (a broken scratch setup, a
test that depends on something the copy lacks) would "kill" every mutant and prove nothing. The
reference method runs every planned test on the original code first. The default method runs the
mutants first and then confirms, in one fork, only the tests whose outcome a verdict rests on:

- a killed mutant: the test that failed first (the child stops there);
- a surviving mutant: every test it ran (a survivor whose tests all fail on the original is
  unjudged, as with the baseline first);
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

    items: list[str]
    status: str            # passed / failed / timeout / error
    failed: list[str]      # in order; a stopping child reports only the first
    again: bool = False    # a run judged again: its first kill rested on a test failing on the original


def rests_on(run: MutantRun) -> list[str]:
    """The tests whose outcome on the original code `run`'s verdict depends on. A run judged again
    rests on all its tests: its tests fail on the original code, so the next may too (a broken
    scratch setup), and confirming them one round at a time would take a fork per test."""
    if run.status == "failed" and run.failed and not run.again:
        return run.failed[:1]
    return list(run.items)


def to_confirm(runs: dict[str, MutantRun], confirmed: set[str]) -> list[str]:
    """The tests no confirmation has run yet that some verdict rests on, sorted (the baseline's order)."""
    return sorted({n for run in runs.values() for n in rests_on(run)} - confirmed)


def verdict(run: MutantRun, broken: set[str]) -> str | None:
    """The final verdict given the tests that fail on the original code; None: judge it again
    without them (its outcome came from, or may have come from, such a test)."""
    kept = [n for n in run.items if n not in broken]
    if not kept:
        return "unjudged"
    if run.status == "passed":
        return "passed"      # the kept tests passed too: what the baseline-first run would have seen
    if run.status == "failed" and run.failed:
        return None if run.failed[0] in broken else "failed"
    return run.status if len(kept) == len(run.items) else None


def without(run: MutantRun, broken: set[str]) -> list[str]:
    """The tests a judged-again run gets: `run`'s minus the ones that fail on the original code."""
    return [n for n in run.items if n not in broken]
