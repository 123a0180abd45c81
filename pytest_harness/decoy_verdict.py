"""What a requirement's decoys (pytest_harness/decoys.py) say about its kills (#47).

A decoy changes the module's code and never its behaviour, and runs exactly as a mutant does. So:

- a test whose check failed on a decoy (`failed`; its run on the original code passed, as for any
  kill: mutation_confirm.py) failed without a behaviour change: a **mutant detector** (or a flaky
  test). Every kill by that test is void (counted as survived), and the requirement misses the bar
  whatever its figures, naming the test and the decoy;
- a decoy run that hung (`timeout`): which test hung is unknown, and a test that hangs on a
  mutant-like run would "kill" by timeout. The requirement's timeout kills are void (neither
  killed nor survived), never its check kills;
- no decoy of the requirement ran (the time box ended first) while it has kills: whether they come
  from behaviour is unknown, so its verdict is open (mutation_verdict.under_the_bar).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_harness.time_box import JUDGED

if TYPE_CHECKING:
    from pytest_harness.mutation_plan import AuditPlan


def decoy_details(plan: AuditPlan, rid: str, results: dict[str, str], killers: dict[str, str]) -> list[dict]:
    """Each decoy of `rid`: id, file, line, kind, description, diff, result (and the test that
    killed it)."""
    out = []
    for did in plan.decoys_of(rid):
        chosen, key = plan.decoys[did], f"{rid}:{did}"
        result = results.get(key, "not_run")
        out.append({"id": did, "file": chosen.file, "line": chosen.mutant.line, "kind": chosen.mutant.kind,
                    "description": chosen.mutant.description, "diff": chosen.diff, "result": result,
                    **({"killed_by": killers[key]} if result == "failed" and key in killers else {})})
    return out


def detectors(details: list[dict]) -> dict[str, str]:
    """{test whose check failed on a decoy: where that decoy is (`file:line: what it rewrote`)}."""
    out: dict[str, str] = {}
    for d in details:
        if d["result"] == "failed" and d.get("killed_by"):
            out.setdefault(d["killed_by"], f"{d['file']}:{d['description']}")
    return out


def void(result: str, killer: str | None, found: dict[str, str], decoy_hung: bool) -> str | None:
    """Why a mutant's kill is void ("detector" / "timeout"), or None when it stands."""
    if result == "failed" and killer in found:
        return "detector"
    if result == "timeout" and decoy_hung:
        return "timeout"
    return None


def unchecked(entry: dict) -> bool:
    """Kills counted while none of the requirement's decoys ran to a verdict (it has decoys)."""
    details = entry.get("decoys") or []
    return bool(details) and entry.get("killed", 0) > 0 and not any(d["result"] in JUDGED for d in details)


def decoy_lines(entry: dict) -> list[str]:
    """Why the decoys fail the requirement; [] when they do not."""
    found = entry.get("detectors") or {}
    if found:
        voided = int(entry.get("void") or 0)
        return [f"a test failed on a decoy — a mutant that changes the code but not its behaviour — so its "
                f"failures are not caused by behaviour (a mutant detector, or a flaky test): "
                + "; ".join(f"{test} failed on decoy {where}" for test, where in sorted(found.items()))
                + f"; {voided} kill{'s' if voided != 1 else ''} by {'it' if len(found) == 1 else 'them'} void"]
    if unchecked(entry):
        return ["mutation audit incomplete: none of its decoys ran within the time box, so whether its "
                "kills come from behaviour is unknown; `builder audit RUN_ID --seconds N` with a longer box completes it"]
    return []
