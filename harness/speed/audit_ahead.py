"""The mutation audit started beside the runtime check instead of after it.

Once the VERIFY stage holds the final workspace evidence (the last task's whole-suite run, reused
or run again) and it passed, nothing VERIFY still does can change what the audit audits: the
runtime check only reads the workspace (the app runs contained, its database in a temporary
directory), and the audit never writes it (only its scratch copy). So the audit of that evidence
starts in a thread there and its plan, scratch copy, session start and first mutants overlap the
wait for the runtime check. The AUDIT stage takes the result (`take`): it is used only when
audit.json still names the digest of the run's latest evidence (`current_audit`); an audit that
raised raises there, as it would have run there. What the audit printed is held and printed by the
AUDIT stage in its place; its events carry their own timestamps. A run that ends before its AUDIT
stage waits for the thread (`wait`, from release_audit_workers) before its workers stop.
"""

from __future__ import annotations

from harness.interrupts import join

import threading

_AHEAD: dict[str, AuditAhead] = {}


class AuditAhead:
    """One audit_run in a thread; `doc` (audit.json) or `error`, and the lines it said."""

    def __init__(self, store, state, budget, runner=None):
        self.lines: list[str] = []
        self.doc: dict | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(store, state, budget, runner),
                                        name=f"audit-beside-runtime-{state.run_id}")
        self._thread.start()

    def _run(self, store, state, budget, runner) -> None:
        from harness.audit.run import audit_run

        try:
            self.doc = audit_run(store, state, budget, say=self.lines.append, runner=runner,
                                 lanes_ahead=_take_lanes(state.run_id))
        except BaseException as exc:  # noqa: BLE001 - re-raised by the AUDIT stage
            self.error = exc

    def wait(self) -> None:
        join(self._thread)


def _take_lanes(run_id: str):
    from harness.speed import lanes_ahead

    return lanes_ahead.take(run_id)


def start(store, state, budget, runner=None) -> None:
    """Start the audit of the run's latest evidence in the background (once per run and process)."""
    if state.run_id not in _AHEAD:
        _AHEAD[state.run_id] = AuditAhead(store, state, budget, runner)


def take(run_id: str) -> AuditAhead | None:
    """The run's audit started ahead, finished (None when there is none); forgotten either way."""
    ahead = _AHEAD.pop(run_id, None)
    if ahead is not None:
        ahead.wait()
    return ahead


def wait(run_id: str) -> None:
    """Let an audit still running for `run_id` finish and forget it (what it wrote stays in
    audit.json, which a resume then finds current or not)."""
    take(run_id)
