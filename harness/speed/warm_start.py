"""Start the run's warm verification worker in the background before the first stage that runs.

The worker's imports (pytest, the plugin, fastapi/pydantic/httpx: ~1-3 s) used to sit on the
critical path of the first task's verification; started as the run begins (pipeline.advance,
before SPEC), they overlap the spec, the plan and the first task's generation. A run that will
verify nothing more (a resume at REVIEW) starts none. A request the spec stage turns down stops
its worker when the run ends, a few tenths of a second after it started, before it served anything
(until #46 the worker started after SPEC, so it waited on the spec stage's whole time).
See harness/speed/warm/workers.py (`prestart`). The audit's lanes get their worker started early
here too (`prestart_audit_workers`), over the empty lane directories the audit prepares.
"""

from __future__ import annotations

from harness.models.enums import RunStatus, TaskStatus

_WILL_VERIFY = frozenset({RunStatus.CREATED, RunStatus.SPEC_DONE, RunStatus.PLAN_DONE, RunStatus.BUILDING,
                          RunStatus.REPAIRING, RunStatus.VERIFYING})


def prestart_worker(ctx) -> None:
    """Start `ctx`'s verification worker now when the run still has tasks or the suite to verify,
    and read the installed pytest plugins' metadata beside it (harness/verification/plugins.py). With
    the mutation audit on, its sandbox also binds the (empty) directories of the audit's lanes it will serve."""
    if ctx.state.status in _WILL_VERIFY:
        prestart_for(ctx.store, ctx.run_id, audited=ctx.audit is not None)


def prestart_for(store, run_id: str, audited: bool) -> None:
    """Start `run_id`'s verification worker in the background (nothing when one is running: a
    second call, from `run_started`, finds the one `builder new` started) and read the plugins'
    metadata beside it; with the audit on, its sandbox binds the audit's (empty) lane directories."""
    from harness.speed.warm.workers import prestart, started
    from harness.verification.plugins import prefetch
    from harness.verification.verifier import verification_env

    env = verification_env(run_id)
    workspace = store.workspace(run_id)
    if started(workspace, env):
        return
    also = ()
    if audited:  # the audit's lanes run on clones of this worker (audit/scratch.py)
        from harness.audit.scratch import share_with_verification

        also = tuple(share_with_verification(store, run_id))
    prestart(workspace, env, also=also)
    prefetch()


def expect_planned_files(ctx) -> int:
    """Without a model every task's files are the offline generator's, known once the plan is:
    hand the worker those of the tasks after the next one (warm.expect), so it compiles, rewrites
    and parses them while the earlier tasks' sessions run instead of before each later session
    is forked. A memo entry is only ever used for a file with exactly those bytes, so a repair or
    a file that differs costs time, never a wrong result. How many files were sent."""
    from harness.providers.base import has_model
    from harness.speed.warm.workers import expect
    from harness.verification.verifier import verification_env

    plan, spec = ctx.state.plan, ctx.state.spec
    if has_model(ctx.llm) or plan is None or spec is None or not plan.offline_fallback:
        return 0
    pending = [t for t in plan.tasks if ctx.state.task_results.get(t.id) == TaskStatus.PENDING]
    if len(pending) < 2:
        return 0
    from harness.offline.generator import generate_files

    try:
        everything = generate_files(spec)
    except Exception:  # noqa: BLE001 - the build itself reports what the generator cannot do
        return 0
    files = {rel: everything[rel] for task in pending[1:] for rel in task.files_touched if rel in everything}
    return expect(ctx.workspace, verification_env(ctx.run_id), files)


def prestart_audit_workers(store, run_id: str) -> None:
    """Have the audit prepare its empty lane directories (harness/audit/scratch.py: prepare_lanes)
    and, when no live worker binds them (no verification worker shares them), start in the
    background the first such lane's worker with the others bound beside it (they are served by
    its clones), so its imports overlap the build instead of delaying the audit."""
    from harness.audit.scratch import prepare_lanes
    from harness.speed.warm.workers import prestart, serves
    from harness.verification.verifier import verification_env

    lanes = prepare_lanes(store, run_id)
    env = verification_env(run_id)
    unserved = [lane for lane in lanes if not serves(lane, env)]
    if unserved:
        prestart(unserved[0], env, also=unserved[1:])
