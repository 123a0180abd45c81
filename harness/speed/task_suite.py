"""The last task's whole-suite session, serving VERIFY's whole suite too: one execution, two verdicts.

When every other task of the plan is COMPLETED and the task being verified runs the whole suite
(`pytest -q` / `python -m pytest -q`: the argv VERIFY runs), that session is VERIFY's session in all
but its document's name: it is offered nothing to carry (`Speed.carry`), so every test runs in a
fresh fork (or a fresh process) against the bytes the task wrote, with the run's requirements and
their files. Running VERIFY's suite again on the same bytes — or a second copy of it beside the task
(harness/speed/suite_ahead.py, which is then not started) — executes the same tests twice.

VERIFY adopts the session (`TaskSuite.adopt`) only when it passed, carried nothing, its inputs are
still the run's, its document is byte for byte what the plugin sent, and the workspace digest taken
before it started, the one taken when the task's commands ended and the one at VERIFY are the same
(harness/speed/validity.py, `ran_final_bytes`). The document is then copied to
evidence/workspace.json and VERIFY's result names it (`reused_from`): the task's verdict and the
final suite's read the same fresh execution. Anything else (a repair that rewrote a file, a late
write, a failure) and VERIFY runs the suite itself, as it does with HARNESS_SPEED=0.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from harness.speed.suite_ahead import suite_inputs
from harness.speed.validity import ran_final_bytes, workspace_digest


def runs_the_suite(task) -> bool:
    """True when one of `task`'s verification commands is the whole suite (what VERIFY runs)."""
    from harness.verification.carry_inputs import is_whole_suite
    from harness.verification.verifier import DEFAULT_COMMAND

    return any(is_whole_suite(c) for c in (task.verification or [DEFAULT_COMMAND]))


def _executed_everything(doc_path: Path) -> bool:
    try:
        doc = json.loads(doc_path.read_text())
    except (OSError, ValueError):
        return False
    tests = doc.get("tests")
    return (isinstance(tests, dict) and bool(doc.get("complete")) and "carried" not in doc
            and not any(isinstance(t, dict) and t.get("carried_from") for t in tests.values()))


class TaskSuite:
    """The whole-suite session of one verification of the last task, watched from before it ran."""

    def __init__(self, ctx, task):
        self.task_id = task.id
        self.inputs = suite_inputs(ctx)
        self.before = workspace_digest(ctx.workspace)
        self.after: str | None = None
        self.result = None

    def ended(self, ctx, results: list) -> None:
        """The task's commands returned `results`: keep its (last) whole-suite result, if any."""
        from harness.verification.carry_inputs import is_whole_suite

        self.after = workspace_digest(ctx.workspace)
        self.result = next((r for r in reversed(results) if is_whole_suite(r.command)), None)

    def adopt(self, ctx):
        """VERIFY's result when the session passed on exactly the workspace's bytes now with the run's
        inputs (its document copied to evidence/workspace.json), else None (VERIFY runs the suite)."""
        from harness.state.layout import WORKSPACE_EVIDENCE
        from harness.trace.matrix import FINAL_SUITE
        from harness.verification.evidence_inputs import document_digest

        r = self.result
        if r is None or r.status != "PASS" or r.carried or r.reused_from or not r.evidence_path or not r.evidence_digest:
            return None
        doc = ctx.store.run_dir(ctx.run_id) / r.evidence_path
        if not (doc.is_file() and document_digest(doc) == r.evidence_digest and _executed_everything(doc)
                and suite_inputs(ctx) == self.inputs
                and ran_final_bytes(self.before, self.after, workspace_digest(ctx.workspace))):
            return None
        final = ctx.store.workspace_evidence(ctx.run_id)
        staged = final.parent / f".{final.name}.{os.getpid()}"
        shutil.copyfile(doc, staged)
        os.replace(staged, final)
        return r.model_copy(deep=True, update={"task_id": FINAL_SUITE, "evidence_path": WORKSPACE_EVIDENCE,
                                               "reused_from": r.evidence_path, "attempt": 0})
