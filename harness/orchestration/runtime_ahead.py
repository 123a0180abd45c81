"""The runtime check, started beside the verification of the task that completes the app.

When every task of the plan but the one being verified is COMPLETED, or still to be built but
writing only new test modules under tests/ (the offline plan's acceptance task, which follows the
app's), the app's files are final unless a verification fails and a repair rewrites them. The
runtime check only reads the workspace (the app runs contained, its database in a temporary
directory), so it can run in a thread while those sessions run: the server's start (~1 s of
imports) and its probes overlap the suites instead of following them.

The result is evidence of the final workspace only if nothing changed: `RuntimeAhead` records the
workspace's snapshot (the same per-file hashes the evidence documents carry) before the check
starts, and `adopt` hands the result to the VERIFY stage only when every file is the same then —
after the suites, any repair and any late write — except test modules under tests/ added since,
and then only a passing result (an app that needed one of them would have failed to start).
Otherwise (or when the check itself raised) VERIFY runs the runtime check again, as before. An
adopted result says so in its evidence, naming the test modules added after it started.
"""

from __future__ import annotations

import threading
from pathlib import Path

from harness.models.enums import TaskStatus
from harness.models.results import RuntimeResult
from harness.models.tasks import Task


def workspace_snapshot(workspace: Path) -> dict | None:
    from pytest_harness.snapshot import snapshot_files

    try:
        return snapshot_files(workspace)
    except OSError:
        return None


def is_test_module(rel: str) -> bool:
    """`tests/test_x.py`, `tests/sub/x_test.py`: a module only pytest imports (never a conftest)."""
    parts = rel.split("/")
    name = parts[-1]
    return (len(parts) > 1 and parts[0] == "tests" and name.endswith(".py")
            and (name.startswith("test_") or name.endswith("_test.py")))


def is_last_task(ctx, task: Task) -> bool:
    """True when every other task of the plan is COMPLETED: `task` writes the final workspace."""
    return all(status == TaskStatus.COMPLETED for tid, status in ctx.state.task_results.items() if tid != task.id)


def completes_the_app(ctx, task: Task) -> bool:
    """True when every other task is COMPLETED or, still pending, writes only test modules under
    tests/ that do not exist yet: after `task`, no file the app can run changes unless a repair does."""
    others = {t.id: t for t in ctx.state.plan.tasks if t.id != task.id}
    for tid, status in ctx.state.task_results.items():
        if tid == task.id or status == TaskStatus.COMPLETED:
            continue
        later = others.get(tid)
        if status != TaskStatus.PENDING or later is None or not later.files_touched or not all(
                is_test_module(rel) and not (ctx.workspace / rel).exists() for rel in later.files_touched):
            return False
    return True


class RuntimeAhead:
    """One runtime check running in a thread over the workspace as it was when it started."""

    def __init__(self, ctx, task: Task):
        from harness.orchestration.steps import runtime_inputs

        self.task_id = task.id
        self.workspace = ctx.workspace
        self.snapshot = workspace_snapshot(self.workspace)
        self.result: RuntimeResult | None = None
        self.error: BaseException | None = None
        self._inputs = runtime_inputs(ctx)
        from harness.orchestration.steps import acceptance_for

        self._acceptance = acceptance_for(ctx, self._inputs[0], self._inputs[1])
        self._thread = threading.Thread(target=self._run, name=f"runtime-beside-{task.id}")
        self._thread.start()

    def _run(self) -> None:
        from harness.verification.runtime import verify_runtime

        steps, _source, hint, entry = self._inputs
        try:
            self.result = verify_runtime(self.workspace, steps=steps, task_hint=hint, entry=entry,
                                         acceptance=self._acceptance)
        except BaseException as exc:  # noqa: BLE001 - VERIFY runs the check again
            self.error = exc

    def wait(self) -> None:
        self._thread.join()

    def adopt(self) -> RuntimeResult | None:
        """The result when the workspace is still what it checked (test modules added under tests/
        aside, and then only a PASS), else None."""
        self.wait()
        if self.result is None or self.error is not None or self.snapshot is None:
            return None
        now = workspace_snapshot(self.workspace)
        if now is None:
            return None
        before = self.snapshot["files"]
        added = sorted(rel for rel in now["files"] if rel not in before)
        if any(not is_test_module(rel) for rel in added) or (added and self.result.status != "PASS"):
            return None
        if {rel: h for rel, h in now["files"].items() if rel not in added} != before:
            return None
        line = (f"run beside {self.task_id}'s verification on the same files "
                f"(workspace snapshot {self.snapshot['digest']})")
        if added:
            line += f"; test modules added since, which the app does not run: {', '.join(added)}"
        self.result.evidence.insert(0, line)
        return self.result


def start_if_last(ctx, task: Task) -> None:
    """Start the runtime check beside `task`'s verification when `task` completes the app
    (`completes_the_app`), its server's imports once a task has completed (`prestart_server`);
    and the mutation audit's worker, which the audit after VERIFY uses, once
    a task has completed (the verification worker's imports are over: the other core is free) or
    beside the plan's last task."""
    if ctx.state.plan is None:
        return
    if not ctx.server_prestarted and any(status == TaskStatus.COMPLETED for status in ctx.state.task_results.values()):
        prestart_server(ctx)
    if ctx.runtime_ahead is None and completes_the_app(ctx, task):
        ctx.runtime_ahead = RuntimeAhead(ctx, task)
    if ctx.audit is not None and (is_last_task(ctx, task) or any(
            status == TaskStatus.COMPLETED for status in ctx.state.task_results.values())):
        from harness.audit.run import prestart_audit_workers

        prestart_audit_workers(ctx.store, ctx.run_id)


def prestart_server(ctx) -> None:
    """Once per run: the runtime check's server process, its imports started now, on the core the
    verification worker no longer needs (harness/verification/server_prestart.py). The build
    stage calls this once a task has completed; VERIFY before the whole suite when no check runs ahead."""
    from harness.verification.server_prestart import prestart

    ctx.server_prestarted = True
    prestart(ctx.workspace)


def take(ctx) -> RuntimeResult | None:
    """The early runtime result VERIFY may use (None: run the check now); forgets it either way."""
    ahead, ctx.runtime_ahead = ctx.runtime_ahead, None
    return ahead.adopt() if ahead is not None else None


def finish(ctx) -> None:
    """At the end of the run: wait for a check still running (its server stops by itself)."""
    ahead, ctx.runtime_ahead = ctx.runtime_ahead, None
    if ahead is not None:
        ahead.wait()


def audit_candidates_beside(ctx, task: Task):
    """When `task` completes the app and the run will be audited, a thread (started) that computes
    the mutation audit's candidate sites of the app's modules (harness/audit/plan.precompute) while
    `task`'s session runs, instead of after the suite on the audit's critical path; None otherwise.
    The caller joins it as soon as the session returns: CPython 3.11's ast must not be used from two
    threads at once, and while the main thread waits on the session nothing else parses. A plan
    takes a site list only for the exact source it was computed from."""
    if ctx.audit is None or ctx.state.plan is None or not completes_the_app(ctx, task):
        return None
    from harness.audit import lanes_ahead
    from harness.audit.plan import precompute

    # Beside the plan's last task, the audit's lanes are filled and started too (lanes_ahead.py);
    # their workers now, while the verification worker is idle (a clone needs it).
    lanes = is_last_task(ctx, task) and lanes_ahead.eligible(ctx) and lanes_ahead.workers(ctx)

    def run() -> None:
        try:
            precompute(ctx.workspace)
        except Exception:  # noqa: BLE001 - only time: the plan computes what is missing itself
            pass
        if lanes:
            lanes_ahead.start(ctx)

    thread = threading.Thread(target=run, name=f"audit-candidates-{ctx.run_id}", daemon=True)
    thread.start()
    return thread
