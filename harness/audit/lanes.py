"""Splitting the audit's mutants over lanes that run at once, and merging what the lanes found.

Each lane is its own pytest session over its own scratch copy (harness/audit/scratch.py), so it
judges its mutants exactly as a single session would. Every mutant of a requirement goes to the
same lane: the runner's time-box rule (past the box, only a requirement whose judged mutants all
survived goes on) must see all of that requirement's verdicts. Requirements are spread by their
estimated cost (their mutants' tests' evidence seconds plus a fork each), largest first, each to
the least loaded lane — the same split for the same plan, every time.
"""

from __future__ import annotations

from harness.audit.plan import AuditPlan

FORK_S = 0.03  # a mutant child's fixed cost beside its tests (fork, fixtures, first request)
_WORST = ("timeout", "error", "invalid", "failed", "passed")  # a merged baseline takes the first status any lane had


def requirement_cost(plan: AuditPlan, rid: str, test_s: dict[str, float]) -> float:
    return sum(FORK_S + sum(test_s.get(n, 0.0) for n in plan.runs[(rid, mid)]) for mid in plan.run_ids(rid))


def split(plan: AuditPlan, test_s: dict[str, float], lanes: int) -> list[list[tuple[str, int, list[str]]]]:
    """The plan's order (requirement, mutant id, tests) cut into at most `lanes` non-empty lanes,
    each keeping the plan's round-robin order among its own requirements."""
    load = [0.0] * max(1, lanes)
    lane_of: dict[str, int] = {}
    for rid in sorted(plan.mutants, key=lambda r: (-requirement_cost(plan, r, test_s), r)):
        k = min(range(len(load)), key=lambda i: (load[i], i))
        lane_of[rid] = k
        load[k] += requirement_cost(plan, rid, test_s)
    order = plan.order()
    cut = [[entry for entry in order if lane_of.get(entry[0]) == k] for k in range(len(load))]
    return [lane for lane in cut if lane]


def lane_files(order: list[tuple[str, int, list[str]]]) -> list[str]:
    """The test files a lane's session collects: those of its mutants' tests."""
    return sorted({n.split("::")[0] for _, _, tests in order for n in tests})


def merge(outcomes: list[dict], planned: int) -> dict:
    """One result from the lanes' results: their verdicts and durations side by side (each mutant
    is in one lane), the baselines' worst status, every test that failed on the original code,
    the confirmed tests and time summed over the lanes."""
    if any("records" in o for o in outcomes):   # lanes on one queue: the harness settles (originals.py)
        from harness.audit.originals import merge_records

        return merge_records(outcomes, planned)
    if len(outcomes) == 1:
        return outcomes[0]
    baselines = [o.get("baseline") or {} for o in outcomes]
    statuses = [b.get("status", "passed") for b in baselines]
    baseline = {"status": next(s for s in _WORST if s in statuses) if statuses else "passed",
                "failed": sorted({n for b in baselines for n in b.get("failed", [])}),
                "tests": sum(b.get("tests", 0) for b in baselines), "planned": planned,
                "duration_s": round(sum(b.get("duration_s", 0.0) for b in baselines), 3),
                "method": baselines[0].get("method"), "lanes": len(outcomes)}
    return {"results": {k: v for o in outcomes for k, v in o.get("results", {}).items()},
            "killers": {k: v for o in outcomes for k, v in o.get("killers", {}).items()},
            "durations": {k: v for o in outcomes for k, v in o.get("durations", {}).items()},
            "baseline": baseline}
