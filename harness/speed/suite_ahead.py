"""The final whole suite, started beside the verification of the plan's last task.

When every other task of the plan is COMPLETED, the task being verified has written the final
workspace unless its verification fails and a repair rewrites it. VERIFY's whole suite is then the
same session whenever it starts: `verify_workspace` — every test, nothing offered to carry, the
same requirements and files. So it starts now, in a thread, in a fresh fork of a clone of the run's
warm worker (the worker itself serves the last task's session meanwhile), instead of after that
session. Its evidence document is written aside (`evidence/.workspace.json.ahead`, not a `*.json`
any reader globs) and moved into place only when VERIFY adopts it.

VERIFY adopts the result (`adopt`) only when it passed and provably ran the final bytes
(harness/speed/validity.py, `ran_final_bytes`): the workspace digest — every file, nothing skipped —
taken before it started, the one taken when it ended, and the one at VERIFY are the same, and the
requirements and their files it was given are still the run's. Anything else (a repair, a late
write, a failure, a session that raised) and the document is removed and VERIFY runs the suite, as
it would without speed: a failing suite is always reported by a session run at VERIFY.
"""

from __future__ import annotations

from harness.interrupts import join

import os
import threading
from pathlib import Path

from harness.speed.validity import ran_final_bytes, workspace_digest

ASIDE_NAME = ".workspace.json.ahead"


def suite_inputs(ctx) -> tuple[list[str], dict]:
    """(requirement ids, requirement files) the whole suite of `ctx`'s run is given."""
    from harness.verification.evidence_inputs import requirement_files

    reqs = [r.id for r in ctx.state.spec.requirements]
    return reqs, requirement_files(ctx.state.spec, ctx.state.plan.tasks if ctx.state.plan else [])


class SuiteAhead:
    """One whole-suite session running in a thread over the workspace's bytes as they were when it started."""

    def __init__(self, ctx, task_id: str, worker):
        self.task_id = task_id
        self.workspace = ctx.workspace
        self.final = ctx.store.workspace_evidence(ctx.run_id)
        self.aside = self.final.parent / ASIDE_NAME
        self.inputs = suite_inputs(ctx)
        self.result = None
        self.error: BaseException | None = None
        self.aside.unlink(missing_ok=True)
        self.before = workspace_digest(self.workspace)
        self.after: str | None = None
        self._worker = worker
        self._thread = threading.Thread(target=self._run, args=(ctx.run_id, worker),
                                        name=f"suite-beside-{task_id}", daemon=True)
        self._thread.start()

    def _run(self, run_id: str, worker) -> None:
        from harness.speed.runners import ForkedRunner
        from harness.state.layout import WORKSPACE_EVIDENCE
        from harness.verification.verifier import verify_workspace

        reqs, req_files = self.inputs
        try:
            self.result = verify_workspace(self.workspace, evidence_path=self.aside, reqs=reqs, run_id=run_id,
                                           evidence_rel=WORKSPACE_EVIDENCE, req_files=req_files,
                                           runner=ForkedRunner(worker))
        except BaseException as exc:  # noqa: BLE001 - VERIFY runs the suite again
            self.error = exc
        finally:
            self.after = workspace_digest(self.workspace)
            worker.stop()

    def wait(self) -> None:
        join(self._thread)

    def adopt(self, ctx):
        """The result when it passed on exactly the workspace's bytes now with the run's inputs
        (its document moved into place), else None (its document removed)."""
        self.wait()
        ok = (self.result is not None and self.error is None and self.result.status == "PASS"
              and self.aside.is_file() and suite_inputs(ctx) == self.inputs
              and ran_final_bytes(self.before, self.after, workspace_digest(self.workspace)))
        if not ok:
            self.discard()
            return None
        os.replace(self.aside, self.final)
        return self.result

    def discard(self) -> None:
        """Stop the session and remove its document (the end of a run that adopted nothing, or a
        result VERIFY will not adopt): its clone is stopped first, so a session still running is
        killed now instead of being waited for to its own end (up to its per-test limits)."""
        self._worker.stop()
        self.wait()
        Path(self.aside).unlink(missing_ok=True)


def start(ctx, task_id: str) -> SuiteAhead | None:
    """Start the final suite beside `task_id`'s session on a clone of the run's warm worker; None
    when there is no ready worker to clone (then VERIFY runs the suite as before)."""
    from harness.speed.warm import workers as warm
    from harness.verification.verifier import verification_env

    if ctx.state.spec is None:
        return None
    from harness.verification.verifier import DEFAULT_COMMAND, command_argv

    worker = warm.worker_for(ctx.workspace, verification_env(ctx.run_id))
    twin = worker.clone(ctx.workspace) if worker is not None else None
    if twin is None:
        return None
    if not warm.eligible(command_argv(DEFAULT_COMMAND, None, [], ctx.workspace), ctx.workspace, twin.covers):
        twin.stop()  # a suite the worker does not cover would run cold beside the task: not started
        return None
    return SuiteAhead(ctx, task_id, twin)
