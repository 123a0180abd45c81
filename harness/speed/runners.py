"""The warm runner the speed door hands the verifier (harness/verification/verifier.py: `Runner`).

A session is the run's warm verification worker (harness/speed/warm/: workers.py on the harness's
side, worker.py and its siblings inside the sandbox, all behind this interface): each command is a fresh fork of a process that imported
pytest, the plugin and the web stack but never a workspace module, and its outcome is executed
there, against the workspace's bytes at that moment. Only a pytest command the worker covers gets
a session; anything else runs cold. `COLD` is no runner: every command a fresh sandboxed process.
"""

from __future__ import annotations

from pathlib import Path


class _WarmSession:
    def __init__(self, worker):
        self._worker = worker

    def outbox(self) -> Path:
        return self._worker.outbox()

    def execute(self, argv: list[str], *, cwd: Path, env: dict[str, str], timeout_s: float, pass_fds=(),
                writable=()):
        from harness.speed.warm import workers as warm

        return warm.execute_warm(self._worker, argv, cwd=cwd, env=env, timeout_s=timeout_s, pass_fds=pass_fds,
                                 writable=writable)


class WarmRunner:
    """Sessions of the workspace's warm worker (started on first use when warm is on)."""

    name = "warm"

    def session(self, probe: list[str], root: Path, env: dict[str, str]) -> _WarmSession | None:
        from harness.speed.warm import workers as warm

        if not warm.eligible(probe, root):
            return None
        worker = warm.worker_for(root, env)
        if worker is None or not warm.eligible(probe, root, worker.covers):
            return None
        return _WarmSession(worker)

    def release(self, place: Path) -> None:
        """Stop the workers serving `place` (and their clones); starts nothing, whatever the switch."""
        from harness.speed.warm import workers as warm

        warm.stop_workers(place)


class ForkedRunner:
    """Sessions of one given worker (a clone of the run's worker, harness/speed/suite_ahead.py):
    each command a fresh fork of it; a command it does not cover runs cold; a session that crashed
    is not retried cold (`retry_cold`): the work started early fails and is done again where it belongs."""

    name = "warm"
    retry_cold = False

    def __init__(self, worker):
        self._worker = worker

    def session(self, probe: list[str], root: Path, env: dict[str, str]) -> _WarmSession | None:
        from harness.speed.warm import workers as warm

        return _WarmSession(self._worker) if warm.eligible(probe, root, self._worker.covers) else None

    def release(self, place: Path) -> None:
        """Nothing: the worker it was given is stopped by whoever gave it."""


COLD = None   # the verifier's default: a fresh sandboxed process per command
