"""A mutation audit's verdicts per requirement, shared by the harness's audit (harness/audit/run.py)
and the plugin's `--harness-mutate` (mutate.py): the counts from the mutants' results, and the bar.

The bar (#47): of a requirement's judged mutants (killed + survived; not run, unjudged and invalid
ones do not count), at least KILL_RATIO must be killed, and at least one. What counts as a kill and
as invalid: mutation_child.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_harness.mutation_attribution import ONLY_SHARED
from pytest_harness.time_box import INVALID, KILL_RATIO, KILLED, SHARED, meets, open_verdict

if TYPE_CHECKING:
    from pytest_harness.mutation_plan import AuditPlan


def _entry(plan: AuditPlan, rid: str, ids: list[int], results: dict[str, str]) -> dict:
    """One plan entry's counts and each mutant's details (id, file, line, kind, description, diff, result)."""
    entry = {"mutants": 0, "killed": 0, "survived": [], "invalid": 0, "not_run": 0, "time_box": 0,
             "skipped": None, "details": []}
    for mid in ids:
        chosen = plan.chosen[mid]
        result = results.get(f"{rid}:{mid}", "not_run")
        entry["details"].append({"id": mid, "file": chosen.file, "line": chosen.mutant.line,
                                 "kind": chosen.mutant.kind, "description": chosen.mutant.description,
                                 "diff": chosen.diff, "result": result,
                                 **({"charged": plan.charged.get(mid, [])} if rid == SHARED else {})})
        if result in KILLED:
            entry["mutants"] += 1
            entry["killed"] += 1
        elif result == "passed":
            entry["mutants"] += 1
            entry["survived"].append(f"{chosen.file}:{chosen.mutant.description}")
        elif result in INVALID:
            entry["invalid"] += 1
        else:
            entry["not_run"] += 1
            entry["time_box"] += result == "not_run"   # never started: the time box ended first
    if ids and entry["not_run"] == len(ids) and any(d["result"] == "unjudged" for d in entry["details"]):
        entry["skipped"] = "its tests did not pass on the unmutated copy"
    return entry


def summarize(plan: AuditPlan, results: dict[str, str]) -> dict[str, dict]:
    """Per requirement: its own mutants judged, killed, survived (described), invalid (a fixture or
    import error, a crash: neither killed nor survived) and not run (time box, baseline); each
    mutant's details (id, file, line, kind, description, diff: `-` the line, `+` the mutant's,
    result). A shared mutant the whole suite let survive counts as a survivor of every requirement
    whose tests ran its line (`shared_survived`, also in `survived` and `mutants`); one the box left
    unrun counts in their `time_box` (it could have been one). A requirement whose tests ran only
    shared lines (`only_shared`) is judged by the whole suite on them: their kills count for it too
    (`shared_killed`). The shared entry itself: `shared`."""
    out: dict[str, dict] = {rid: {"mutants": 0, "killed": 0, "survived": [], "invalid": 0, "not_run": 0,
                                  "time_box": 0, "skipped": why, "details": []} for rid, why in plan.skipped.items()}
    for rid, ids in sorted(plan.mutants.items()):
        if rid != SHARED:
            out[rid] = {**_entry(plan, rid, ids, results), "shared_survived": []}
    for entry in out.values():
        if entry["skipped"] == ONLY_SHARED:
            entry.update(only_shared=True, shared_survived=[], shared_killed=[])
    for detail in shared(plan, results).get("details", []):
        for rid in detail["charged"]:
            _charge(out.get(rid), detail)
    for entry in out.values():
        if entry.get("only_shared") and (entry["mutants"] or entry["time_box"]):
            entry["skipped"] = None   # judged by the whole suite on its lines
    return dict(sorted(out.items()))


def _charge(entry: dict | None, detail: dict) -> None:
    """Count a shared mutant in the entry of a requirement whose tests ran its line: a survivor
    always, a kill only for a requirement whose tests ran no line of its own."""
    if entry is None or "shared_survived" not in entry:
        return   # not verified, or nothing of its own or shared to judge
    if detail["result"] == "passed":
        entry["mutants"] += 1
        entry["survived"].append(f"{detail['file']}:{detail['description']} (shared line: no test of the suite "
                                 f"detects it)")
        entry["shared_survived"].append(detail["id"])
    elif detail["result"] in KILLED and entry.get("only_shared"):
        entry["mutants"] += 1
        entry["killed"] += 1
        entry["shared_killed"].append(detail["id"])
    elif detail["result"] == "not_run":
        entry["time_box"] += 1   # it could have been a survivor: the box must not choose the verdict


def shared(plan: AuditPlan, results: dict[str, str]) -> dict:
    """The shared lines' entry (mutation_attribution.py): its mutants judged by the whole suite, each
    survivor's `charged` requirements; {} when no line is shared."""
    ids = plan.mutants.get(SHARED)
    return _entry(plan, SHARED, ids, results) if ids else {}


def judged(entry: dict) -> int:
    """Killed + survived."""
    return entry.get("killed", 0) + len(entry["survived"]) if "survived" in entry else entry.get("mutants", 0)


def under_the_bar(entry: dict | None) -> bool:
    """Whether an audited requirement misses the bar, or its verdict is still open: mutants the time
    box left unrun could change it (it is then not met either — the box must not choose a verdict,
    #47). One with no mutant judged, invalid or left unrun was not audited."""
    if not entry:
        return False
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
    killed, total, invalid = entry.get("killed", 0), entry.get("mutants", 0), int(entry.get("invalid") or 0)
    rest = int(entry.get("time_box") or 0)
    if open_verdict(killed, judged(entry), rest):
        return [f"mutation audit incomplete: {rest} of its mutants were not run within the time box and "
                f"could change the verdict ({killed} of {judged(entry)} judged killed; the bar is "
                f"{KILL_RATIO:.0%}); `builder audit RUN_ID --seconds N` with a longer box completes it"]
    survived = list(entry.get("survived") or [])
    lines = [f"tests do not detect a broken implementation: {killed}/{total} mutants killed "
             f"({killed} of {judged(entry)} judged; the bar is {KILL_RATIO:.0%})"
             + (f"; {invalid} invalid (a fixture, import or crash error ended the test: not a kill)"
                if invalid else "")]
    kinds = {f"{d.get('file')}:{d.get('description')}": d.get("kind") for d in entry.get("details") or []}
    return lines + [f"survived: {s}" + (f" [{kinds[s]}]" if kinds.get(s) else "") for s in survived[:4]]
