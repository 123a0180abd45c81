"""What the harness hands a whole-suite session so it need not re-run what earlier sessions proved.

Every earlier PASS verification of the run whose evidence document still has the digest the
plugin sent is offered to a whole-suite pytest command (`pytest -q`, `python -m pytest -q`): the
document is copied into the session's outbox (the run directory is not visible inside the
sandbox) and named with `--harness-carry=COPY::DIGEST::LABEL`, LABEL being its run-relative path.
The plugin (pytest_harness/carry.py) decides per test, from the document's read set, what may be
carried; the result records how many tests were carried and from where, and the command recorded
stays the real command. `HARNESS_CARRY=0` offers nothing.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

from harness.verification.evidence_inputs import NO_DIGEST, document_digest

ENV_CARRY = "HARNESS_CARRY"
_TASK = re.compile(r"(TASK-)(\d+)")


WHOLE_SUITE = (["pytest", "-q"], ["python", "-m", "pytest", "-q"], ["python3", "-m", "pytest", "-q"])


def carry_enabled() -> bool:
    """HARNESS_CARRY=0 or HARNESS_SPEED=0 (harness/utils/speed_switch.py): nothing is carried."""
    from harness.utils.speed_switch import carry_on

    return carry_on()


def is_whole_suite(command: str) -> bool:
    """`pytest -q` / `python -m pytest -q` and nothing else: the only commands offered carry."""
    try:
        return shlex.split(command) in [list(a) for a in WHOLE_SUITE]
    except ValueError:
        return False


@dataclass(frozen=True)
class CarryInput:
    path: Path     # the document in the run directory
    digest: str    # what the plugin sent when that session ended
    label: str     # its run-relative path, cited by carried tests


def carry_inputs(results: list, run_dir: Path) -> list[CarryInput]:
    """Earlier PASS documents of the run, oldest first, whose bytes still have their digest."""
    if not carry_enabled():
        return []
    out: dict[str, CarryInput] = {}
    for r in results:
        if (r.status != "PASS" or not r.evidence_path or r.reused_from or not r.evidence_digest
                or r.evidence_digest == NO_DIGEST):
            continue
        path = run_dir / r.evidence_path
        if document_digest(path) == r.evidence_digest:
            out.pop(r.evidence_path, None)
            out[r.evidence_path] = CarryInput(path, r.evidence_digest, r.evidence_path)
    return list(out.values())


def stage(inputs: list[CarryInput], outbox: Path) -> list[str]:
    """Copy the documents into the session's outbox; the plugin arguments naming them."""
    args = []
    for n, source in enumerate(inputs, start=1):
        copy = outbox / f"carry-{n}.json"
        try:
            shutil.copyfile(source.path, copy)
        except OSError:
            continue
        if document_digest(copy) == source.digest:
            args.append(f"--harness-carry={copy}::{source.digest}::{source.label}")
    return args


def carried_counts(evidence_path: Path | None) -> tuple[int | None, int, list[str]]:
    """(tests in the document, how many were carried, from which documents) of a finished session."""
    if evidence_path is None:
        return None, 0, []
    try:
        doc = json.loads(evidence_path.read_text(encoding="utf-8"))
        tests = doc.get("tests") or {}
        carried = [e for e in tests.values() if isinstance(e, dict) and e.get("carried_from")]
        return len(tests), len(carried), sorted({e["carried_from"] for e in carried})
    except (OSError, ValueError, AttributeError, TypeError):
        return None, 0, []


def task_range(labels: list[str]) -> str:
    """`TASK-001..004` for consecutive task documents, else the names joined."""
    found = [m for m in (_TASK.search(Path(label).name) for label in labels) if m]
    if len(found) != len(labels) or not found:
        return ", ".join(labels)
    nums = sorted({int(m.group(2)) for m in found})
    width = len(found[0].group(2))
    if len(nums) > 1 and nums == list(range(nums[0], nums[-1] + 1)):
        return f"TASK-{nums[0]:0{width}d}..{nums[-1]:0{width}d}"
    return ", ".join(f"TASK-{n:0{width}d}" for n in nums)


def carry_note(result) -> str:
    """` (25 tests: 6 run, 19 carried from TASK-001..004)`, or "" when nothing was carried."""
    if not getattr(result, "carried", 0):
        return ""
    total = result.tests if result.tests is not None else result.carried
    return (f" ({total} tests: {total - result.carried} run, {result.carried} carried from "
            f"{task_range(result.carried_from)})")
