"""The runtime check, started beside the verification of the plan's last task.

When every other task of the plan is COMPLETED, the task being verified has written the final
workspace unless its verification fails and a repair rewrites it. The runtime check only reads the
workspace (the app runs contained, its database in a temporary directory; with bubblewrap the
workspace is read-only to it), so it runs in a thread while that task's session runs: the
server's start and its probes overlap the suite instead of following it.

The result is adopted by the VERIFY stage only when it provably ran the final bytes
(harness/speed/validity.py, `ran_final_bytes`): the workspace digest — every file, nothing
skipped — taken before the check started, the one taken when it ended, and the one at VERIFY are
the same. Anything else (a repair, a late write, a check that raised) and VERIFY runs the check
again, as it would without speed. An adopted result says so in its evidence, naming the digest.
"""

from __future__ import annotations

from harness.interrupts import join

import threading
from pathlib import Path

from harness.models.enums import TaskStatus
from harness.models.results import RuntimeResult
from harness.speed.validity import ran_final_bytes, workspace_digest


def is_last_task(ctx, task) -> bool:
    """True when every other task of the plan is COMPLETED: `task` writes the final workspace."""
    return all(status == TaskStatus.COMPLETED for tid, status in ctx.state.task_results.items() if tid != task.id)


class RuntimeAhead:
    """One runtime check running in a thread over the workspace's bytes as they were when it started."""

    server = None        # the app's process once launched (stop() ends it)
    _stopped = False     # stop() was called: the check is never adopted

    def __init__(self, workspace: Path, inputs: tuple, task_id: str, prepared=None, acceptance=None):
        self.task_id = task_id
        self.workspace = workspace
        self.before = workspace_digest(workspace)
        self.after: str | None = None
        self.result: RuntimeResult | None = None
        self.error: BaseException | None = None
        self._inputs, self._prepared, self._acceptance = inputs, prepared, acceptance
        self.launched = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"runtime-beside-{task_id}")
        self._thread.start()

    def _run(self) -> None:
        from harness.speed import server_prestart
        from harness.verification.runtime import verify_runtime

        steps, _source, hint, entry = self._inputs
        try:
            self.result = verify_runtime(self.workspace, steps=steps, task_hint=hint, entry=entry,
                                         acceptance=self._acceptance, prepared=self._prepared,
                                         on_launch=self._launched, spare=server_prestart.spare)
        except BaseException as exc:  # noqa: BLE001 - VERIFY runs the check again
            self.error = exc
        finally:
            self.after = workspace_digest(self.workspace)
            self.launched.set()

    def _launched(self, proc) -> None:
        self.server = proc
        self.launched.set()
        if self._stopped:
            proc.stop(0)

    def stop(self) -> None:
        """End the check now (a run that ends before VERIFY takes it, e.g. Ctrl+C): its server is
        stopped, so the probes end at once instead of running to their own end; never adopted."""
        self._stopped = True
        if self.server is not None:
            self.server.stop(0)

    def wait(self) -> None:
        join(self._thread)

    def adopt(self) -> RuntimeResult | None:
        """The result when it ran exactly the workspace's bytes now, else None."""
        self.wait()
        if self._stopped or self.result is None or self.error is not None:
            return None
        if not ran_final_bytes(self.before, self.after, workspace_digest(self.workspace)):
            return None
        self.result.evidence.insert(0, f"run beside {self.task_id}'s verification on the final bytes "
                                       f"(workspace digest {self.before}, the same before, after and at VERIFY)")
        return self.result
