"""The audit's lane sessions, started beside the last task's session instead of after it.

A lane's session spends ~100-130 ms before its first mutant (a clone of the verification worker,
pytest's start and Config, collection of the mutated copy) — on the audit's critical path, after
the evidence it audits exists. None of that needs the plan: the plan only picks which mutants run
with which tests. So while the last task's session runs (its files are written: the workspace is
final unless a repair rewrites it), each lane is filled with a copy holding *every* candidate
mutant and every decoy (pytest_harness/decoys.py) of every app module behind its guard
(`__harness_mutant__ == id`, 0 = the original code; see mutator.py), and its session is started with a deferred plan: it collects, then waits on its
queue pipe (pytest_harness/mutation_dispatch.receive_plan). The audit then makes its plan from the
final evidence exactly as before (`make_plan(..., ids=...)`: the same choice, the copy's ids) and
sends it; the lanes go on as any lane does.

The copy serves the plan only when it is a copy of exactly the evidenced workspace: the snapshot
digest taken before the copy must equal the evidence's and the workspace's at the audit, and every
chosen mutant must be in it. Anything else — a repair, a late write, a session that ended, another
method or lane count — gives the lanes up (`cancel`: `{"end": true}`, the sessions end without a
result) and the audit runs as it always did. Verdicts come, as always, only from each lane's
digest-checked result file.
"""

from __future__ import annotations

import json
import secrets
import shutil
import threading
from pathlib import Path

from harness.audit import scratch as scratch_mod
from harness.interrupts import join
from harness.utils import own_tmp

_AHEAD: dict[str, LanesAhead] = {}
WAIT_S = 900.0   # how long a lane may wait for its plan (the last task's session and its repairs)


class _Lane:
    """One lane's session, started with a deferred plan, in a thread."""

    def __init__(self, run_id: str, lane: Path, number: int, seconds: float, method: str):
        from harness.audit.dispatch import LanePipes
        from harness.audit.run import PLAN_DIR, RESULT_NAME, _command
        from harness.verification.evidence_inputs import DigestPipe

        self.lane, self.number, self.run_id = lane, number, run_id
        self.nonce = secrets.token_hex(8)
        (lane / PLAN_DIR).mkdir()
        self.received = own_tmp.make("out")  # the result, handed over from the session's outbox
        self.plan_path, self.result_path = lane / PLAN_DIR / "plan.json", self.received / RESULT_NAME
        self.pipes, self.digest = LanePipes(), DigestPipe()
        self.plan_path.write_text(json.dumps({
            "nonce": self.nonce, "seconds": seconds, "method": method, "result": str(self.result_path),
            "deferred": True, "dispatch": list(self.pipes.lane_fds)}), encoding="utf-8")
        self.command = _command(self.plan_path, ["tests"], self.digest.write_fd, method)
        self.result = None
        self.thread = threading.Thread(target=self._run, name=f"audit-lane-ahead-{number}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from harness.audit.run import _STARTUP_S
        from harness.speed.runners import WarmRunner
        from harness.verification.verifier import run_command

        try:   # a clone of the verification worker (eligible() requires warm on)
            self.result = run_command(self.command, self.lane, task_id="AUDIT", run_id=self.run_id, runner=WarmRunner(),
                                      timeout_s=WAIT_S + _STARTUP_S,
                                      pass_fds=(self.digest.write_fd, *self.pipes.lane_fds),
                                      collect={self.result_path.name: self.result_path})
        except Exception:  # noqa: BLE001 - the lane is then given up; the audit runs as before
            self.result = None

    def send(self, message: dict) -> bool:
        import os

        data = (json.dumps(message) + "\n").encode()
        try:
            while data:
                data = data[os.write(self.pipes.answer_write, data):]
        except OSError:
            return False
        return True


class LanesAhead:
    """The lanes of one run, filled and started beside its last task's session."""

    def __init__(self, store, state, budget):
        self.run_id = state.run_id
        self.workspace = store.workspace(state.run_id)
        self.evidence_dir = store.evidence_dir(state.run_id)
        self.dirs = scratch_mod.lane_dirs(store, state.run_id, scratch_mod.lane_count())
        self.budget = budget
        self.digest: str | None = None      # the evidence snapshot's digest of what was copied
        self.copied: str | None = None      # validity.workspace_digest of what was copied (nothing skipped)
        self.ids: dict[tuple[str, str], int] = {}
        self.lanes: list[_Lane] = []

    def start(self) -> None:
        """Copy and start (call it where nothing else uses ast: see runtime_ahead.audit_candidates_beside)."""
        from harness.audit.mutator import apply
        from harness.audit.plan import app_modules, file_candidates
        from pytest_harness.decoy_plan import file_decoys
        from pytest_harness.mutation_plan import guard_ids
        from pytest_harness.snapshot import snapshot_files

        from harness.speed.validity import workspace_digest

        self.copied = workspace_digest(self.workspace)
        self.digest = snapshot_files(self.workspace)["digest"]
        ran = self._ran_lines()
        sites: dict[str, tuple[str, list]] = {}
        for path in app_modules(self.workspace):
            rel = path.relative_to(self.workspace)
            try:
                source = path.read_text(encoding="utf-8")
                lines = ran.get(rel.as_posix(), set())
                sites[rel.as_posix()] = (source, [m for m in (*file_candidates(source), *file_decoys(source))
                                                  if m.line in lines])
            except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
                continue   # a plan that chooses from this file finds no id for it: the audit runs as before
        drawn = iter(guard_ids(sum(len(found) for _source, found in sites.values())))  # as make_plan's (#47)
        mutated: dict[str, str] = {}
        for rel, (source, found) in sites.items():
            keys = {m.key: next(drawn) for m in found}
            try:
                text = apply(source, keys) if keys else source
            except (SyntaxError, ValueError):
                continue
            self.ids.update({(rel, key): mid for key, mid in keys.items()})
            mutated[rel] = text
        for lane in self.dirs:
            if not lane.is_dir() or any(lane.iterdir()):
                raise OSError(f"audit lane {lane} is not an empty directory")
            scratch_mod.fill_lane(self.workspace, lane, mutated)
        self.lanes = [_Lane(self.run_id, lane, k, self.budget.seconds, self.budget.method)
                      for k, lane in enumerate(self.dirs)]

    def _ran_lines(self) -> dict[str, set[int]]:
        """{file: lines any test's call ran} over the run's evidence so far: a plan picks only
        executed lines, so the copy guards only those (a line first run by the last task's own
        tests is missing: a plan that picks it finds no id, and the audit runs as before)."""
        ran: dict[str, set[int]] = {}
        for path in sorted(self.evidence_dir.glob("*.json")):
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            for test in (doc.get("tests") or {}).values() if isinstance(doc, dict) else ():
                for rel, lines in ((test or {}).get("lines") or {}).items():
                    ran.setdefault(rel, set()).update(n for n in lines if isinstance(n, int))
        return ran

    def serves(self, evidence: dict, snapshot_digest: str, lanes: int) -> bool:
        """True when these lanes hold exactly the evidenced workspace's bytes (harness/speed/validity.py)
        and still wait for a plan."""
        from harness.speed.validity import lanes_hold_evidenced_bytes, workspace_digest

        return (bool(self.lanes) and len(self.lanes) == lanes and self.digest == snapshot_digest
                and lanes_hold_evidenced_bytes(self.copied, workspace_digest(self.workspace), self.digest,
                                               (evidence.get("snapshot") or {}).get("digest"))
                and all(lane.thread.is_alive() for lane in self.lanes))

    def go(self, part: dict, dispatcher) -> list[tuple[dict, str]] | None:
        """Send every lane the plan's rest (`part`) and serve their queue; (result, command shown)
        per lane once all ended, or None when a lane could not be told (then cancel them)."""
        from harness.audit.dispatch import serve
        from harness.audit.run import lane_result, shown_command

        if not all(lane.send({"plan": part}) for lane in self.lanes):
            return None
        stops = [threading.Event() for _ in self.lanes]
        servers = [threading.Thread(target=serve, args=(dispatcher, lane.number, lane.pipes.ask_read,
                                                        lane.pipes.answer_write, stop), name=f"audit-queue-{lane.number}",
                                    daemon=True)
                   for lane, stop in zip(self.lanes, stops)]
        for server in servers:
            server.start()
        out = []
        try:
            for lane, stop, server in zip(self.lanes, stops, servers):
                join(lane.thread)
                sent = lane.digest.received()
                lane.pipes.close_lane_side()
                stop.set()
                join(server)
                lane.pipes.close()
                out.append((lane_result(lane.result_path, sent, lane.nonce, lane.result),
                            shown_command(lane.command, lane.lane, lane.digest.write_fd)))
        finally:   # an interrupt while a lane runs: no server waits on a pipe we hold open
            for stop in stops:
                stop.set()
            for lane in self.lanes:
                shutil.rmtree(lane.received, ignore_errors=True)
            self.lanes = []
        return out

    def cancel(self) -> None:
        """Give the lanes up: their sessions end without a result; their copies stay for the caller to clear."""
        for lane in self.lanes:
            lane.send({"end": True})
        for lane in self.lanes:
            lane.pipes.close_lane_side()
            join(lane.thread, timeout=60)
            lane.digest.received()
            lane.pipes.close()
            shutil.rmtree(lane.received, ignore_errors=True)
        self.lanes = []


def eligible(ctx) -> bool:
    """Lanes start ahead when the run is audited with the default method over shared lanes (the
    verification worker binds them, so clones serve them) and warm verification is on."""
    import os

    from harness.audit.run import METHODS
    from harness.utils.speed_switch import speculation_on, warm_on

    return (ctx.audit is not None and ctx.audit.method == METHODS[0] and warm_on() and speculation_on()
            and scratch_mod.lane_count() > 1 and ctx.run_id not in _AHEAD
            and os.path.realpath(ctx.store.audit_scratch(ctx.run_id)) in scratch_mod._SHARED)


def workers(ctx) -> bool:
    """In the main thread, before the last task's command is sent (a clone needs its parent idle):
    a worker for every lane; False when one cannot be had."""
    from harness.speed.warm.workers import worker_for
    from harness.verification.verifier import verification_env

    env = verification_env(ctx.run_id)
    dirs = scratch_mod.lane_dirs(ctx.store, ctx.run_id, scratch_mod.lane_count())
    return all(worker_for(lane, env) is not None for lane in dirs)


def start(ctx) -> None:
    """Fill and start the run's lanes (in the thread that computes the audit's candidates)."""
    ahead = LanesAhead(ctx.store, ctx.state, ctx.audit)
    _AHEAD[ctx.run_id] = ahead
    try:
        ahead.start()
    except Exception:  # noqa: BLE001 - only time: the audit runs as before
        ahead.cancel()
        _AHEAD.pop(ctx.run_id, None)
        from harness.speed.runners import WarmRunner

        scratch_mod.clear_stale_scratch(ctx.store, ctx.run_id, WarmRunner())


def take(run_id: str) -> LanesAhead | None:
    """The run's lanes started ahead (forgotten here: the caller uses or cancels them)."""
    return _AHEAD.pop(run_id, None)


def cancel(run_id: str) -> None:
    ahead = take(run_id)
    if ahead is not None:
        ahead.cancel()

