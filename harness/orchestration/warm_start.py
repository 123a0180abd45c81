"""Start the run's warm verification worker in the background before the first stage after SPEC.

The worker's imports (pytest, the plugin, fastapi/pydantic/httpx: ~1-2 s) used to sit on the
critical path of the first task's verification; started once the spec is there
(pipeline.advance), they overlap the plan and the first task's generation. A run that will verify
nothing more (a resume at REVIEW) starts none, and neither does a request the spec stage turns
down (until the sixth pass every such run started a worker it never used).
See harness/sandbox/warm.py (`prestart`).
"""

from __future__ import annotations

from harness.models.enums import RunStatus

_WILL_VERIFY = frozenset({RunStatus.CREATED, RunStatus.SPEC_DONE, RunStatus.PLAN_DONE, RunStatus.BUILDING,
                          RunStatus.REPAIRING, RunStatus.VERIFYING})


def prestart_worker(ctx) -> None:
    """Start `ctx`'s verification worker now when the run still has tasks or the suite to verify,
    and read the installed pytest plugins' metadata beside it (harness/verification/plugins.py). With
    the mutation audit on, its sandbox also binds the (empty) directories of the audit's lanes it will serve."""
    from harness.sandbox.warm import prestart
    from harness.verification.plugins import prefetch
    from harness.verification.verifier import verification_env

    if ctx.state.status in _WILL_VERIFY:
        also = ()
        if ctx.audit is not None:  # the audit's lanes run on clones of this worker (audit/scratch.py)
            from harness.audit.scratch import share_with_verification

            also = tuple(share_with_verification(ctx.store, ctx.run_id))
        prestart(ctx.workspace, verification_env(ctx.run_id), also=also)
        prefetch()
