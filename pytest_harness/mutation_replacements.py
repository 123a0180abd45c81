"""An invalid mutant judged nothing: the audit draws its replacement once (#47: a kill is a check).

A mutant is `invalid` when a crash, a fixture error or an ImportError ended its tests before any
check failed (pytest_harness/mutation_child.py): neither killed nor survived. Under the
check-only kill rule a requirement whose tests call code that crashes under a `return None` or a
dropped assignment loses that mutant from its budget — an honest requirement could end at 1 of
3 judged where it would have had a behaviour-changing mutant in its place. So after the audit's
run, each requirement whose verdict they could change (`wanted`) gets, once, as many more mutants
as it had invalid ones: behaviour-changing picks first (pytest_harness/mutation_plan.make_plan `instead`), run in a
second round over a fresh copy — the harness's audit (harness/audit/run.py) and the plugin's
`--harness-mutate` (mutate.py) alike. Their verdicts join the first round's; an invalid
replacement is not replaced again. A hollow suite gains nothing from it: its replacements are
judged by the same hollow checks.
"""

from __future__ import annotations

from pytest_harness.mutation_plan import AuditPlan, make_plan
from pytest_harness.mutation_verdict import judged, summarize
from pytest_harness.time_box import INVALID, open_verdict


def wanted(plan: AuditPlan, results: dict) -> dict[str, tuple[set[tuple[str, str]], int]]:
    """{requirement: ((file, mutant key) of its planned mutants, how many came out invalid)} for
    every requirement with an invalid mutant whose replacements could still change its verdict
    (time_box.open_verdict: it misses the bar if they all survive and meets it if they are all
    killed) — 3 killed of 3 judged with one invalid meets the bar whatever a fourth does."""
    entries = summarize(plan, results)
    out = {}
    for rid, ids in plan.mutants.items():
        invalid = sum(results.get(f"{rid}:{mid}") in INVALID for mid in ids)
        entry = entries.get(rid) or {}
        if invalid and open_verdict(entry.get("killed", 0), judged(entry), invalid):
            out[rid] = ({(plan.chosen[mid].file, plan.chosen[mid].mutant.key) for mid in ids}, invalid)
    return out


def replacement_plan(plan: AuditPlan, results: dict, evidence: dict, workspace, max_mutants: int,
                     seed: int) -> AuditPlan:
    """The second round's plan: only the replacements (empty when nothing came out invalid)."""
    need = wanted(plan, results)
    if not need:
        return AuditPlan()
    taken = set(plan.chosen)
    extra = make_plan(evidence, workspace, max_mutants, seed, instead=need)
    if taken & set(extra.chosen):   # a 1-in-2**53 draw: keep ids unique within the audit
        return AuditPlan()
    return extra


def merge(plan: AuditPlan, extra: AuditPlan, results: dict, more: dict) -> dict:
    """Add the second round's mutants to `plan` (in place) and its verdicts to `results` (a new
    dict): the killers and durations joined, the first round's baseline kept."""
    for rid, ids in extra.mutants.items():
        plan.mutants.setdefault(rid, []).extend(ids)
    plan.runs.update(extra.runs)
    plan.chosen.update(extra.chosen)
    plan.shared |= extra.shared
    merged = {**results, **{k: v for k, v in more.items() if ":" in k}}
    merged["killers"] = {**(results.get("killers") or {}), **(more.get("killers") or {})}
    merged["durations"] = {**(results.get("durations") or {}), **(more.get("durations") or {})}
    return merged
