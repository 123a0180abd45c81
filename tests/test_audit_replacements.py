"""#47: an invalid mutant (a crash ended its tests before any check) judged nothing, so the audit
draws its replacement once. Which requirements get how many (`wanted`), and how the second
round's mutants and verdicts join the first's (`merge`). The whole round is exercised by the
scripted notes model's build (tests/test_llm_notes_e2e.py): its search requirement was 1/3
judged with its `return None` mutant invalid, under the bar; with a negated `not terms` in its
place, 2/4."""

from __future__ import annotations

from harness.audit.replacements import merge, wanted
from pytest_harness.mutation_plan import AuditPlan, Chosen
from pytest_harness.mutator import Mutant


def _plan() -> AuditPlan:
    plan = AuditPlan()
    for mid, (kind, line) in {11: ("return", 3), 12: ("compare", 4), 13: ("drop", 5)}.items():
        plan.chosen[mid] = Chosen(id=mid, file="src/a.py", mutant=Mutant(kind, line, f"{kind}:{line}", ""))
    plan.mutants = {"REQ-001": [11, 12], "REQ-002": [13]}
    plan.runs = {("REQ-001", 11): ["t::a"], ("REQ-001", 12): ["t::a"], ("REQ-002", 13): ["t::b"]}
    return plan


def test_only_requirements_with_invalid_mutants_whose_verdict_is_open_want_replacements():
    """REQ-001: 0 of 1 judged and 1 invalid — a killed replacement would meet the bar: replaced.
    1 of 1 judged: a surviving replacement leaves 1 of 2, still met: not replaced (no second round
    for a verdict it cannot change). REQ-002's only mutant an error: 0 of 0, replaced."""
    results = {"REQ-001:11": "invalid", "REQ-001:12": "passed", "REQ-002:13": "passed"}
    assert wanted(_plan(), results) == {"REQ-001": ({("src/a.py", "return:3"), ("src/a.py", "compare:4")}, 1)}
    assert wanted(_plan(), {**results, "REQ-001:12": "failed"}) == {}
    assert wanted(_plan(), {**results, "REQ-002:13": "error"})["REQ-002"] == ({("src/a.py", "drop:5")}, 1)
    assert wanted(_plan(), {k: "failed" for k in results}) == {}


def test_the_second_rounds_mutants_and_verdicts_join_the_first_rounds():
    plan = _plan()
    extra = AuditPlan()
    extra.chosen[21] = Chosen(id=21, file="src/a.py", mutant=Mutant("negate", 6, "negate:6", ""))
    extra.mutants = {"REQ-001": [21]}
    extra.runs = {("REQ-001", 21): ["t::a"]}
    first = {"REQ-001:11": "invalid", "REQ-001:12": "failed", "REQ-002:13": "passed",
             "killers": {"REQ-001:12": "t::a"}, "durations": {"REQ-001:11": 0.1}, "baseline": {"status": "passed"}}
    more = {"REQ-001:21": "failed", "killers": {"REQ-001:21": "t::a"}, "durations": {"REQ-001:21": 0.2},
            "baseline": {"status": "passed", "tests": 1}}
    got = merge(plan, extra, first, more)
    assert plan.mutants["REQ-001"] == [11, 12, 21] and 21 in plan.chosen and ("REQ-001", 21) in plan.runs
    assert got["REQ-001:21"] == "failed" and got["REQ-001:11"] == "invalid"
    assert got["killers"] == {"REQ-001:12": "t::a", "REQ-001:21": "t::a"}
    assert got["durations"] == {"REQ-001:11": 0.1, "REQ-001:21": 0.2}
    assert got["baseline"] == {"status": "passed"}   # the first round's
