"""Each test's run on the original code, once per audit over all its lanes (#47, the audit's cost).

A mutant's kill by a test counts only when that test passes on the original code, and that run
must not be told apart from a mutant's by its place (pytest_harness/mutation_slots.OriginalSlots).
When the lanes of an audit take their mutants from one queue (dispatch.py), a lane placing the
runs itself saw only its share of a test's runs, so every test ran on the original in every lane
that met it — with two lanes about 30 % of the audit's work. Here the queue places them
(OriginalSlots, over all the lanes' runs): when it hands out a mutant run, whether each of the
run's tests that has not had its original run goes before its *next* run is drawn with
probability 1/r, r the runs listing it still in the queue (a run the time box skips is drawn again
for the next) — each of all the lanes' runs equally likely, never after the last — and when a run
is about to be handed out that is such a test's next run, every test so drawn runs on the original
first, in one fork, sent with the mutant to one lane. The choice is drawn in the harness's process:
no file holds it. After the mutants, `follow_ups` hands out what the verdicts still need, as
one session does (pytest_harness/mutation_confirm.py): the tests no run placed (the time box
ended their runs early), then the mutants to judge again without the tests that fail there.

What the lanes say on the queue only steers the work. The verdicts are settled by `merge_records`
from the lanes' digest-checked result files: a run whose confirmation no file holds is `error`.
"""

from __future__ import annotations

import secrets
from collections import Counter

from pytest_harness.mutation_confirm import MutantRun, from_record, needs, settle, to_confirm, verdict, without
from pytest_harness.mutation_slots import OriginalSlots

MAX_ROUNDS = 4   # a mutant is judged again at most this often (a lane lost mid-run must not loop)


class Originals:
    """The original runs of one audit: where they go, what they found, what is still needed."""

    def __init__(self, order: list, draw=secrets.randbelow):
        self.slots = OriginalSlots(order, draw=draw)
        self.assigned: set[str] = set()    # handed to a lane (each test once)
        self.confirmed: set[str] = set()   # reported run
        self.broken: set[str] = set()      # did not pass there
        self.runs: dict[str, MutantRun] = {}
        self.rounds: Counter = Counter()
        self.timed_out = False

    def place(self, tests: list[str]) -> list[str]:
        """The tests to run on the original before the mutant run listing `tests` about to be handed out."""
        chosen = self.slots.before(tests, self.assigned)
        self.assigned.update(chosen)
        return chosen

    def skip(self, tests: list[str]) -> None:
        self.slots.skip(tests)

    def give_back(self, tests: list[str], chosen: list[str]) -> None:
        """A run handed out and lost (its lane's session was retried): it goes back to the queue."""
        lost = sorted(set(chosen) - self.confirmed)
        self.slots.give_back(tests, lost)
        self.assigned.difference_update(lost)

    def record(self, found: dict) -> None:
        """What a lane ran for one job (pytest_harness/mutation_lane.py); anything malformed is ignored."""
        try:
            original = found.get("original")
            if isinstance(original, dict):
                self.confirmed.update(str(n) for n in original.get("tests") or [])
                self.broken.update(str(n) for n in original.get("broken") or [])
                self.timed_out = self.timed_out or original.get("status") == "timeout"
            run = found.get("run")
            if isinstance(run, dict) and isinstance(run.get("key"), str):
                self.runs[run["key"]] = from_record(run)
        except (AttributeError, TypeError, ValueError):
            return

    def follow_ups(self) -> list[dict]:
        """The next jobs once every mutant has run: the original runs the verdicts still need (tests
        never handed out), else the mutants to judge again; [] when nothing is left."""
        need = [n for n in to_confirm(self.runs, self.confirmed, self.broken) if n not in self.assigned]
        if need:
            self.assigned.update(need)
            return [{"original": need}]
        jobs = []
        for key, run in self.runs.items():
            if (not needs(run, self.confirmed, self.broken) and verdict(run, self.broken) is None
                    and self.rounds[key] < MAX_ROUNDS):
                self.rounds[key] += 1
                rid, mutant_id = key.rsplit(":", 1)
                jobs.append({"again": [rid, int(mutant_id), without(run, self.broken)], "round": self.rounds[key]})
        return jobs


def merge_records(outcomes: list[dict], planned: int) -> dict:
    """The verdicts of lanes that recorded their runs (pytest_harness/mutation_lane.py): every
    lane's original runs together, each mutant's latest judging, settled as one session settles
    them; an original run past its limit leaves nothing judged (as with the baseline first)."""
    runs: dict[str, MutantRun] = {}
    latest: dict[str, int] = {}
    durations: Counter = Counter()
    confirmed, broken, statuses, spent, original_runs = set(), set(), [], 0.0, 0
    for outcome in outcomes:
        records = outcome.get("records") or {}
        for record in records.get("runs") or []:
            key, round_ = str(record.get("key")), int(record.get("round") or 0)
            durations[key] += float(record.get("duration_s") or 0.0)
            if round_ >= latest.get(key, -1):
                latest[key], runs[key] = round_, from_record(record)
        for original in records.get("originals") or []:
            tests = [str(n) for n in original.get("tests") or []]
            original_runs += len(tests)
            confirmed.update(tests)
            broken.update(str(n) for n in original.get("broken") or [])
            statuses.append(original.get("status"))
            spent += float(original.get("duration_s") or 0.0)
    if "timeout" in statuses:
        status, results, killers = "timeout", {}, {}
    else:
        results, killers = settle(runs, broken, confirmed)
        status = "error" if "error" in statuses else ("failed" if broken else "passed")
    baseline = {"status": status, "failed": sorted(broken), "tests": len(confirmed), "original_runs": original_runs,
                "planned": planned, "duration_s": round(spent, 3), "method": "confirm", "lanes": len(outcomes)}
    return {"results": results, "killers": killers,
            "durations": {key: round(s, 3) for key, s in durations.items()}, "baseline": baseline}
