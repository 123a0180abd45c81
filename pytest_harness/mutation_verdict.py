"""A mutation audit's verdicts per requirement, shared by the harness's audit (harness/audit/run.py)
and the plugin's `--harness-mutate` (mutate.py): the counts from the mutants' results, and the bar.

The bar (#47): of a requirement's judged mutants (killed + survived; not run, unjudged and invalid
ones do not count), at least KILL_RATIO must be killed, and at least one. What counts as a kill and
as invalid: mutation_child.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_harness.decoy_verdict import decoy_details, decoy_lines, detectors, unchecked, void
from pytest_harness.mutation_attribution import verdict_of
from pytest_harness.time_box import INVALID, KILL_RATIO, KILLED, meets, open_verdict

if TYPE_CHECKING:
    from pytest_harness.mutation_plan import AuditPlan


def _entry(plan: AuditPlan, rid: str, results: dict[str, str], killers: dict[str, str]) -> dict:
    """One requirement's counts and each mutant's details (id, file, line, kind, description, diff,
    result, shared). A kill by another requirement's test on a shared line is `elsewhere`
    (mutation_attribution.py): in `mutants`, neither killed nor survived."""
    entry = {"mutants": 0, "killed": 0, "survived": [], "elsewhere": 0, "invalid": 0, "not_run": 0, "time_box": 0,
             "skipped": None, "details": []}
    own = set(plan.tests.get(rid) or ())
    decoys = decoy_details(plan, rid, results, killers)
    found = detectors(decoys)
    hung = any(d["result"] == "timeout" for d in decoys)
    if decoys:
        entry.update({"decoys": decoys, "detectors": found, "void": 0})
    for mid in plan.mutants[rid]:
        chosen, key = plan.chosen[mid], f"{rid}:{mid}"
        result = verdict_of(results.get(key, "not_run"), killers.get(key), own)
        why_void = void(result, killers.get(key), found, hung)
        entry["details"].append({"id": mid, "file": chosen.file, "line": chosen.mutant.line,
                                 "kind": chosen.mutant.kind, "description": chosen.mutant.description,
                                 "diff": chosen.diff, "result": result, "shared": mid in plan.shared,
                                 **({"killed_by": killers[key]} if result == "elsewhere" or why_void else {}),
                                 **({"void": why_void} if why_void else {})})
        if why_void:   # a kill the decoys show was not caused by behaviour (decoy_verdict.py)
            entry["void"] += 1
            if why_void == "detector":
                entry["mutants"] += 1
                entry["survived"].append(f"{chosen.file}:{chosen.mutant.description}")
            else:
                entry["invalid"] += 1
        elif result in KILLED:
            entry["mutants"] += 1
            entry["killed"] += 1
        elif result == "passed":
            entry["mutants"] += 1
            entry["survived"].append(f"{chosen.file}:{chosen.mutant.description}")
        elif result == "elsewhere":
            entry["mutants"] += 1
            entry["elsewhere"] += 1
        elif result in INVALID:
            entry["invalid"] += 1
        else:
            entry["not_run"] += 1
            entry["time_box"] += result == "not_run"   # never started: the time box ended first
    return entry


def summarize(plan: AuditPlan, results: dict) -> dict[str, dict]:
    """Per requirement: mutants with a verdict, killed (by its own tests), survived (described),
    killed elsewhere (a shared line's mutant only another requirement's test killed: not counted),
    invalid (a fixture or import error, a crash: neither killed nor survived) and not run (time box,
    baseline); each mutant's details (id, file, line, kind, description, diff: `-` the line, `+` the
    mutant's, result, whether its line is shared). `results`: the runner's "REQ:id" verdicts and
    `killers` (each killed mutant's first failed test)."""
    out: dict[str, dict] = {rid: {"mutants": 0, "killed": 0, "survived": [], "invalid": 0, "not_run": 0,
                                  "time_box": 0, "skipped": why, "details": []} for rid, why in plan.skipped.items()}
    killers = results.get("killers") or {}
    for rid, ids in sorted(plan.mutants.items()):
        entry = _entry(plan, rid, results, killers)
        if entry["not_run"] == len(ids) and any(d["result"] == "unjudged" for d in entry["details"]):
            entry["skipped"] = "its tests did not pass on the unmutated copy"
        out[rid] = entry
    return dict(sorted(out.items()))


def shared_summary(plan: AuditPlan, results: dict) -> dict:
    """The mutants on shared lines over every requirement, each judged by the whole suite: killed by
    the requirement's own tests, by another's (`elsewhere`), by none (`survived`: each a survivor of
    its requirement, listed here as `REQ: file:line: what changed`)."""
    out = {"mutants": 0, "killed": 0, "elsewhere": 0, "survived": 0, "survivors": []}
    killers = results.get("killers") or {}
    for rid, ids in sorted(plan.mutants.items()):
        own = set(plan.tests.get(rid) or ())
        for mid in ids:
            if mid not in plan.shared:
                continue
            key = f"{rid}:{mid}"
            result = verdict_of(results.get(key, "not_run"), killers.get(key), own)
            bucket = "killed" if result in KILLED else "survived" if result == "passed" else result
            if bucket in ("killed", "elsewhere", "survived"):
                out["mutants"] += 1
                out[bucket] += 1
            if bucket == "survived":
                out["survivors"].append(f"{rid}: {plan.chosen[mid].file}:{plan.chosen[mid].mutant.description}")
    return out


def judged(entry: dict) -> int:
    """Killed + survived."""
    return entry.get("killed", 0) + len(entry["survived"]) if "survived" in entry else entry.get("mutants", 0)


def under_the_bar(entry: dict | None) -> bool:
    """Whether an audited requirement misses the bar, or its verdict is still open: mutants the time
    box left unrun could change it (it is then not met either — the box must not choose a verdict,
    #47). One with no mutant judged, invalid or left unrun was not audited."""
    if not entry:
        return False
    if entry.get("detectors") or unchecked(entry):   # kills not caused by behaviour, or not shown to be
        return True
    rest = int(entry.get("time_box") or 0)
    if open_verdict(entry.get("killed", 0), judged(entry), rest):
        return True
    if not (entry.get("mutants") or entry.get("invalid")):
        return False
    return not meets(entry.get("killed", 0), judged(entry))


def bar_lines(entry: dict | None) -> list[str]:
    """Why a requirement misses the bar, and its first survivors (file, line, what changed, kind); []
    when it meets it or was not audited."""
    if not under_the_bar(entry):
        return []
    first = decoy_lines(entry)
    if first and meets(entry.get("killed", 0), judged(entry)):
        return first + survivor_lines(entry)
    return first + [line for line in _figure_lines(entry) if not (first and line.startswith("mutation audit incomplete"))]


def _figure_lines(entry: dict) -> list[str]:
    """The figures' side of bar_lines (an open verdict, or under the bar and its survivors)."""
    killed, total, invalid = entry.get("killed", 0), entry.get("mutants", 0), int(entry.get("invalid") or 0)
    rest = int(entry.get("time_box") or 0)
    if open_verdict(killed, judged(entry), rest):
        return [f"mutation audit incomplete: {rest} of its mutants were not run within the time box and "
                f"could change the verdict ({killed} of {judged(entry)} judged killed; the bar is "
                f"{KILL_RATIO:.0%}); `builder audit RUN_ID --seconds N` with a longer box completes it"]
    survived = list(entry.get("survived") or [])
    elsewhere = int(entry.get("elsewhere") or 0)
    lines = [f"tests do not detect a broken implementation: {killed}/{total} mutants killed "
             f"({killed} of {judged(entry)} judged; the bar is {KILL_RATIO:.0%})"
             + (f"; {elsewhere} killed only by other requirements' tests (shared lines: not counted)"
                if elsewhere else "")
             + (f"; {invalid} invalid (a fixture, import or crash error ended the test: not a kill)"
                if invalid else "")]
    return lines + survivor_lines(entry)


def survivor_lines(entry: dict | None) -> list[str]:
    """The first survivors of a requirement (file, line, what changed, kind), met the bar or not."""
    kinds = {f"{d.get('file')}:{d.get('description')}": d.get("kind") for d in (entry or {}).get("details") or []}
    return [f"survived: {s}" + (f" [{kinds[s]}]" if kinds.get(s) else "") for s in list((entry or {}).get("survived") or [])[:4]]
