"""The speed door: the one object on the run context (`ctx.speed`) through which every acceleration
path of a run goes, and the pipeline's named hook points into it.

Hook points (in pipeline order) — each does nothing with speed off (HARNESS_SPEED=0 / --no-speed):

- `new_run_created(...)`    `builder new`, once the run exists, before the pipeline's imports: start the worker
- `run_started(ctx)`        pipeline.advance, before SPEC: start the warm verification worker (if not yet)
- `build_started(ctx)`      build_stage: hand the worker the later tasks' planned files
- `runner()`                steps: how verification commands may run (the warm runner, or cold)
- `carry(ctx, task)`        steps: earlier task documents a per-task whole-suite session may carry from
- `watch_task_suite(ctx, task)` / `task_suite_ended(...)`   steps, around a task's commands: the last
                            task's whole-suite session (carrying nothing) that VERIFY may adopt
- `beside_task(ctx, task, inputs)` / `task_verified()`   build_stage.run_task, around a task's session:
                            prestart the runtime server, start the runtime check / the final suite /
                            audit candidates / audit lanes beside the plan's last task, prestart the
                            audit's workers
- `before_suite(ctx)`       VERIFY: prestart the runtime server (its imports overlap the final suite)
- `take_suite(ctx)`         VERIFY: the last task's own whole-suite session, or the whole suite started
                            beside the last task, if it passed on the final bytes
- `take_runtime(ctx)`       VERIFY: the runtime check started ahead, if it ran the final bytes
- `prestarted_server(ctx)`  VERIFY: a prestarted server for the runtime check, if it may serve
- `after_suite(ctx)`        VERIFY: the audit of the final evidence, started beside the runtime check
- `reaudit_beside_runtime(ctx)`   `pytest --harness-run`: the re-audit, started beside the runtime check
- `take_audit(ctx)` / `take_lanes(ctx)`   AUDIT: the audit started ahead / lanes filled ahead
- `cancel(ctx)`             the end of a run: everything still running stops, nothing is kept

Every early result is judged by harness/speed/validity.py alone; docs/speed.md states the invariant.
"""

from __future__ import annotations

from harness.interrupts import join

import threading

from harness.models.enums import TaskStatus
from harness.utils.speed_switch import carry_on, speed_on, warm_on


def is_test_module(rel: str) -> bool:
    """`tests/test_x.py`, `tests/sub/x_test.py`: a module only pytest imports (never a conftest)."""
    parts = rel.split("/")
    name = parts[-1]
    return (len(parts) > 1 and parts[0] == "tests" and name.endswith(".py")
            and (name.startswith("test_") or name.endswith("_test.py")))


def completes_the_app(ctx, task) -> bool:
    """True when every other task is COMPLETED or, still pending, writes only test modules under
    tests/ that do not exist yet: after `task`, no file the app can run changes unless a repair does.
    (Only the audit's candidate precompute starts here: it is keyed by the exact source it parsed.)"""
    others = {t.id: t for t in ctx.state.plan.tasks if t.id != task.id}
    for tid, status in ctx.state.task_results.items():
        if tid == task.id or status == TaskStatus.COMPLETED:
            continue
        later = others.get(tid)
        if status != TaskStatus.PENDING or later is None or not later.files_touched or not all(
                is_test_module(rel) and not (ctx.workspace / rel).exists() for rel in later.files_touched):
            return False
    return True


def new_run_created(store, run_id: str, audited: bool) -> None:
    """`builder new`, as soon as the run's directory exists and before the harness imports its
    pipeline (~1-1.5 s on a loaded machine): start the run's warm worker in the background, so its
    imports overlap the harness's own, the spec and the plan. `run_started` finds it running."""
    if speed_on() and warm_on():
        from harness.speed.warm_start import prestart_for

        prestart_for(store, run_id, audited=audited)


class Speed:
    """Every acceleration path of one run: start / take / cancel. `on` False: all of them off."""

    def __init__(self, on: bool | None = None):
        self.on = speed_on() if on is None else on
        self.runtime_ahead = None          # a RuntimeAhead started beside the last task
        self.suite_ahead = None            # a SuiteAhead (the final whole suite) started beside the last task
        self.suite_taken_from = ""         # the task beside which (or in whose session) the adopted final suite ran
        self.suite_taken_note = ""         # how, for VERIFY's line
        self.suite_in_task = ""            # the last task, whose whole-suite session serves VERIFY (task_suite.py)
        self.task_suite = None             # a TaskSuite: that session, watched from before it ran
        self.server_prestarted = False
        self._beside: threading.Thread | None = None

    # -- the verification worker -------------------------------------------------------------
    def run_started(self, ctx) -> None:
        if self.on and warm_on():
            from harness.speed.warm_start import prestart_worker

            prestart_worker(ctx)

    def build_started(self, ctx) -> int:
        if not (self.on and warm_on()):
            return 0
        from harness.speed.warm_start import expect_planned_files

        return expect_planned_files(ctx)

    def runner(self):
        """The runner the verifier gets: warm sessions when warm is on, else None (cold)."""
        if self.on and warm_on():
            from harness.speed.runners import WarmRunner

            return WarmRunner()
        return None

    def carry(self, ctx, task=None) -> list:
        """Documents a per-task whole-suite session may carry passing tests from (never the final
        suite, nor the last task's session that serves as the final suite: `suite_in_task`)."""
        if not (self.on and carry_on()) or (task is not None and task.id == self.suite_in_task):
            return []
        from harness.verification.carry_inputs import carry_inputs

        return carry_inputs(ctx.state.verification_results, ctx.store.run_dir(ctx.run_id))

    # -- beside a task's session -------------------------------------------------------------
    def beside_task(self, ctx, task, runtime_inputs, acceptance=None) -> None:
        """Before `task`'s session: what may overlap it (see the module docstring)."""
        if not self.on or ctx.state.plan is None:
            return
        from harness.speed.runtime_ahead import RuntimeAhead, is_last_task

        completed = any(status == TaskStatus.COMPLETED for status in ctx.state.task_results.values())
        last = is_last_task(ctx, task)
        if not self.server_prestarted and completed:
            self._prestart_server(ctx)
        if self.runtime_ahead is None and last:
            self.runtime_ahead = RuntimeAhead(ctx.workspace, runtime_inputs, task.id, self._take_server(ctx), acceptance)
        if ctx.audit is not None and (last or completed):
            from harness.speed.warm_start import prestart_audit_workers

            prestart_audit_workers(ctx.store, ctx.run_id)
        from harness.speed.task_suite import runs_the_suite

        if last and runs_the_suite(task):   # its own session is VERIFY's suite: no second copy beside it
            self.suite_in_task = task.id
        elif self.suite_ahead is None and last and warm_on():
            from harness.speed import suite_ahead

            self.suite_ahead = suite_ahead.start(ctx, task.id)
        self._beside = self.audit_candidates_beside(ctx, task, last)

    def watch_task_suite(self, ctx, task):
        """Before `task`'s commands run: a TaskSuite watching the session VERIFY may adopt when
        `task` is the last task and runs the whole suite (`suite_in_task`), else None."""
        if not (self.on and task.id == self.suite_in_task):
            return None
        from harness.speed.task_suite import TaskSuite

        return TaskSuite(ctx, task)

    def task_suite_ended(self, ctx, watched, results: list) -> None:
        """`task`'s commands returned: the latest watched session is the one VERIFY may adopt."""
        if watched is not None:
            watched.ended(ctx, results)
            self.task_suite = watched

    def task_verified(self) -> None:
        """Right after the session returned (CPython 3.11's ast must not run in two threads at once)."""
        beside, self._beside = self._beside, None
        if beside is not None:
            join(beside)

    def audit_candidates_beside(self, ctx, task, last: bool) -> threading.Thread | None:
        """When `task` completes the app and the run is audited: a started thread computing the
        audit's candidate sites (keyed by the exact source it parsed) and, beside the last task,
        filling and starting the audit's lanes (lanes_ahead.py); None otherwise."""
        if ctx.audit is None or not completes_the_app(ctx, task):
            return None
        from harness.audit.plan import precompute
        from harness.speed import lanes_ahead

        lanes = last and lanes_ahead.eligible(ctx) and lanes_ahead.workers(ctx)

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

    # -- VERIFY --------------------------------------------------------------------------------
    def before_suite(self, ctx) -> None:
        if self.on and self.runtime_ahead is None and not self.server_prestarted:
            self._prestart_server(ctx)

    def take_suite(self, ctx):
        """The final whole suite started beside the last task when it passed on the final bytes
        (validity.py), its evidence moved into place; else None (VERIFY runs the suite)."""
        own, self.task_suite = self.task_suite, None
        result = own.adopt(ctx) if own is not None else None
        if result is not None:
            self.suite_taken_from = own.task_id
            self.suite_taken_note = f"the whole-suite session of {own.task_id} on these bytes"
            ahead, self.suite_ahead = self.suite_ahead, None
            if ahead is not None:      # one started beside an earlier last task: not needed
                ahead.discard()
            return result
        ahead, self.suite_ahead = self.suite_ahead, None
        result = ahead.adopt(ctx) if ahead is not None else None
        self.suite_taken_from = ahead.task_id if result is not None else ""
        self.suite_taken_note = f"started beside {ahead.task_id} on these bytes" if result is not None else ""
        return result

    def take_runtime(self, ctx):
        """The runtime result started ahead when it ran the final bytes (validity.py), else None."""
        ahead, self.runtime_ahead = self.runtime_ahead, None
        return ahead.adopt() if ahead is not None else None

    def prestarted_server(self, ctx):
        return self._take_server(ctx) if self.on else None

    def after_suite(self, ctx, passed: bool) -> None:
        """Once the final suite passed: the audit of its evidence starts beside the runtime check."""
        if not (self.on and passed and ctx.audit is not None):
            return
        from harness.audit.run import current_audit
        from harness.speed.warm_start import prestart_audit_workers
        from harness.speed import audit_ahead

        evidence = ctx.store.read_workspace_evidence(ctx.run_id)
        if evidence and evidence.get("complete") and current_audit(ctx.store, ctx.run_id, evidence) is None:
            prestart_audit_workers(ctx.store, ctx.run_id)
            audit_ahead.start(ctx.store, ctx.state, ctx.audit, self.runner())

    def reaudit_beside_runtime(self, ctx) -> None:
        """`pytest --harness-run` of an audited run: the re-audit of the evidence just written starts
        beside the runtime check (as after_suite in a build, without its "not audited yet" rule: a
        re-verification audits again whatever audit.json says); reverify.reaudit takes it."""
        if not self.on:
            return
        from harness.audit.run import AuditBudget
        from harness.speed import audit_ahead
        from harness.speed.warm_start import prestart_audit_workers

        prestart_audit_workers(ctx.store, ctx.run_id)
        audit_ahead.start(ctx.store, ctx.state, AuditBudget(), self.runner())

    # -- AUDIT ---------------------------------------------------------------------------------
    def take_audit(self, ctx):
        from harness.speed import audit_ahead

        return audit_ahead.take(ctx.run_id)

    def take_lanes(self, ctx):
        from harness.speed import lanes_ahead

        return lanes_ahead.take(ctx.run_id)

    # -- the end -------------------------------------------------------------------------------
    def cancel(self, ctx) -> None:
        """Stop everything still running for the run; nothing started here outlives it."""
        from harness.audit.scratch import release_audit_workers
        from harness.speed import audit_ahead, lanes_ahead, server_prestart
        from harness.speed.runners import WarmRunner
        from harness.speed.warm.workers import stop_workers

        self.task_verified()
        ahead, self.runtime_ahead = self.runtime_ahead, None
        if ahead is not None:              # nothing will adopt it: stop its server, then wait
            ahead.stop()
            ahead.wait()
        suite, self.suite_ahead = self.suite_ahead, None
        if suite is not None:              # a run that ended before VERIFY: the suite is not kept
            suite.discard()
        audit_ahead.wait(ctx.run_id)       # an audit started beside the runtime check ends first
        lanes_ahead.cancel(ctx.run_id)     # lanes filled beside the last task that no audit took
        stop_workers(ctx.workspace)
        server_prestart.stop(ctx.workspace)
        release_audit_workers(ctx.store, ctx.run_id, WarmRunner())  # the lanes' workers end too

    # -- helpers -------------------------------------------------------------------------------
    def _prestart_server(self, ctx) -> None:
        from harness.speed.server_prestart import prestart

        self.server_prestarted = True
        prestart(ctx.workspace)

    def _take_server(self, ctx):
        from harness.speed.server_prestart import take

        return take(ctx.workspace)
