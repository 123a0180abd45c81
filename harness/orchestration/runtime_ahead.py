"""The runtime check, started beside the last task's verification instead of after it.

When the last task of the plan has been built (every other task COMPLETED), its files are the
final workspace unless its verification fails and a repair rewrites them. The runtime check only
reads the workspace (the app runs contained, its database in a temporary directory), so it can run
in a thread while that task's pytest session runs: the server's start (~1 s of imports) and its
probes overlap the suite instead of following it.

The result is evidence of the final workspace only if nothing changed: `RuntimeAhead` records the
workspace's snapshot digest (the same digest the evidence documents carry) before the check
starts, and `adopt` hands the result to the VERIFY stage only when the digest is the same then —
after the suite, any repair and any late write. Otherwise (or when the check itself raised) VERIFY
runs the runtime check again, as before. An adopted result says so in its evidence.
"""

from __future__ import annotations

import threading
from pathlib import Path

from harness.models.enums import TaskStatus
from harness.models.results import RuntimeResult
from harness.models.tasks import Task


def workspace_digest(workspace: Path) -> str | None:
    from pytest_harness.snapshot import snapshot_files

    try:
        return snapshot_files(workspace)["digest"]
    except OSError:
        return None


def is_last_task(ctx, task: Task) -> bool:
    """True when every other task of the plan is COMPLETED: `task` writes the final workspace."""
    return all(status == TaskStatus.COMPLETED for tid, status in ctx.state.task_results.items() if tid != task.id)


class RuntimeAhead:
    """One runtime check running in a thread over the workspace as it was when it started."""

    def __init__(self, ctx, task: Task):
        from harness.orchestration.steps import runtime_inputs

        self.task_id = task.id
        self.workspace = ctx.workspace
        self.digest = workspace_digest(self.workspace)
        self.result: RuntimeResult | None = None
        self.error: BaseException | None = None
        self._inputs = runtime_inputs(ctx)
        self._thread = threading.Thread(target=self._run, name=f"runtime-beside-{task.id}")
        self._thread.start()

    def _run(self) -> None:
        from harness.verification.runtime import verify_runtime

        steps, _source, hint, entry = self._inputs
        try:
            self.result = verify_runtime(self.workspace, steps=steps, task_hint=hint, entry=entry)
        except BaseException as exc:  # noqa: BLE001 - VERIFY runs the check again
            self.error = exc

    def wait(self) -> None:
        self._thread.join()

    def adopt(self) -> RuntimeResult | None:
        """The result when the workspace is still exactly what it checked, else None."""
        self.wait()
        if self.result is None or self.error is not None or self.digest is None:
            return None
        if workspace_digest(self.workspace) != self.digest:
            return None
        self.result.evidence.insert(0, f"run beside {self.task_id}'s verification on the same files "
                                       f"(workspace snapshot {self.digest})")
        return self.result


def start_if_last(ctx, task: Task) -> None:
    """Start the runtime check beside `task`'s verification when `task` is the plan's last (and the
    mutation audit's worker, which the audit after VERIFY uses)."""
    if ctx.state.plan is not None and is_last_task(ctx, task) and ctx.runtime_ahead is None:
        ctx.runtime_ahead = RuntimeAhead(ctx, task)
        if ctx.audit is not None:  # and the audit's worker imports meanwhile too
            from harness.audit.run import prestart_audit_worker

            prestart_audit_worker(ctx.store, ctx.run_id)


def take(ctx) -> RuntimeResult | None:
    """The early runtime result VERIFY may use (None: run the check now); forgets it either way."""
    ahead, ctx.runtime_ahead = ctx.runtime_ahead, None
    return ahead.adopt() if ahead is not None else None


def finish(ctx) -> None:
    """At the end of the run: wait for a check still running (its server stops by itself)."""
    ahead, ctx.runtime_ahead = ctx.runtime_ahead, None
    if ahead is not None:
        ahead.wait()
