"""The mutation audit of one run: which requirements' tests fail when their code is wrong.

The workspace is never mutated: the mutants are compiled (guarded, see mutator.py) into a
scratch copy under the run directory (RunStore.audit_scratch), the requirement's tests run there
through the verifier's `run_command` (the same sandbox and runner as every verification), with
the mutation_runner plugin forking one child per mutant. The runner writes its result file inside
the scratch copy, where the code under test could rewrite it; it also sends the file's sha256 over
an inherited pipe (DigestPipe, as the evidence plugin does) and a result whose bytes no longer
match is rejected. A SIGKILL at any point leaves at worst a stale scratch copy (and maybe its
processes): the next audit, and `builder resume` even of a finished run, clear both first
(clear_stale_scratch); the workspace itself is never written. audit.json records, per requirement, the
mutants judged, killed and survived; it names the evidence snapshot it audited, so an audit of
older evidence is never applied to newer evidence.
"""

from __future__ import annotations

import json
import secrets
import shlex
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from harness.audit.plan import DEFAULT_SEED, AuditPlan, make_plan
from harness.audit.replacements import merge, replacement_plan
from pytest_harness.mutation_verdict import shared_summary, summarize  # noqa: F401 - importable from here too
from harness.errors import RunDataError
from harness.interrupts import INTERRUPTS, kill_children
from harness.models.run import RunState
from harness.state.checkpoints import crash_hook
from harness.state.store import RunStore
from harness.utils import own_tmp
from harness.verification.outbox import OUTBOX
from pytest_harness.time_box import GRACE_FACTOR, admit, box_seconds

SCHEMA_VERSION = 1
DEFAULT_MAX_MUTANTS = 4      # per requirement
DEFAULT_SECONDS = 10.0       # time box of the mutant runs (the build's bounded audit)
PLAN_DIR = ".harness_audit"
RESULT_NAME = "result.json"
CRASH_MARKER = "audit:running"  # HARNESS_CRASH_AT hook: SIGKILL with the scratch copy mutated
_STARTUP_S = 60.0            # allowance for the sandboxed pytest to start and collect


METHODS = ("confirm", "baseline-first")  # see pytest_harness/mutation_runner.py; the first is the default


@dataclass(frozen=True)
class AuditBudget:
    max_mutants: int = DEFAULT_MAX_MUTANTS
    seconds: float = DEFAULT_SECONDS
    seed: int = DEFAULT_SEED
    method: str = METHODS[0]   # "baseline-first": the reference method (every planned test first, rewritten asserts)


def current_audit(store: RunStore, run_id: str, evidence: dict | None) -> dict | None:
    """audit.json when it audited exactly this evidence (same snapshot digest), else None."""
    audit = store.read_audit(run_id)
    digest = (evidence or {}).get("snapshot", {}).get("digest")
    if not audit or not digest or audit.get("evidence_digest") != digest:
        return None
    return audit


# The scratch copies' life cycle lives in scratch.py; these names stay importable from here.
from harness.audit.scratch import clear_stale_scratch, release_audit_workers  # noqa: E402,F401


def _command(plan_path: Path, files: list[str], digest_fd: int, method: str = METHODS[0]) -> str:
    """A lane's pytest command. The confirm method skips assertion rewriting (`--assert=plain`):
    a rewritten assert fails exactly when the plain one does, only its message differs, and the
    runner reports a failure by its one-line exception anyway; rewriting the test modules cost the
    session ~0.3-0.5 s of its start. The lane is read-only to its session: the result goes to the
    command's outbox (OUTBOX, see verifier.run_command) and the verifier hands it over (`collect`)."""
    plain = ["--assert=plain"] if method == "confirm" else []
    return shlex.join(["pytest", "-q", *plain, "-p", "pytest_harness.mutation_runner", "-p", "no:warnings",
                       f"--harness-mutants={plan_path}", f"--harness-mutants-digest-fd={digest_fd}",
                       f"--harness-mutants-result={OUTBOX}/{RESULT_NAME}", *files])


def evidence_seconds(evidence: dict, plan: AuditPlan) -> dict[str, float]:
    """{planned test (a requirement's, or another's a shared line's mutant runs on): its duration (setup + call + teardown) in the evidence session}: the confirm
    method's time limits (a test without one makes the runner use the baseline-first method)."""
    tests = evidence.get("tests") or {}
    return {n: float((tests.get(n) or {}).get("duration_s") or 0.0) for ts in plan.runs.values() for n in ts}


def _read_result(result_path: Path, sent: str) -> dict:
    """The runner's result, or RunDataError when its bytes differ from the digest it sent."""
    from harness.verification.evidence_inputs import NO_DIGEST, document_digest

    if sent == NO_DIGEST:
        raise RunDataError("mutation audit result rejected: the runner sent no digest for result.json")
    if document_digest(result_path) != sent:
        raise RunDataError("mutation audit result rejected: result.json changed after the pytest session ended")
    return json.loads(result_path.read_text(encoding="utf-8"))


def _run_mutants(store: RunStore, state: RunState, plan: AuditPlan, budget: AuditBudget,
                 test_s: dict[str, float], ahead=None, runner=None) -> tuple[dict, str, int]:
    """({"REQ:id": result, "baseline", "durations"}, the first lane's command, lanes): each lane one
    sandboxed pytest session over its own scratch copy (scratch.py), the lanes at once (lanes.py);
    `ahead`: lanes started beside the last task (harness/speed/lanes_ahead.py), used when they fit the plan."""
    from harness.audit import lanes as lanes_mod
    from harness.audit import scratch as scratch_mod

    run_id = state.run_id
    orders = lanes_mod.split(plan, test_s, scratch_mod.lane_count())
    budget = replace(budget, seconds=box_seconds(budget.seconds, plan.order(), test_s, len(orders)))
    dispatcher = None
    if len(orders) > 1 and budget.method == METHODS[0]:   # one queue for all lanes (dispatch.py)
        from harness.audit.dispatch import Dispatcher

        dispatcher = Dispatcher(plan.order(), budget.seconds, GRACE_FACTOR, admit, decoys=set(plan.decoys))
        everything = plan.order()   # every lane holds every mutant and takes them from the queue
        orders = [everything] * len(orders)
    if ahead is not None:
        outcomes = None
        if dispatcher is not None and len(ahead.lanes) == len(orders):
            part = {"order": orders[0], "tests": plan.tests, "test_s": test_s, "seconds": budget.seconds,
                    "method": budget.method, "lanes": len(orders)}
            try:
                crash_hook(CRASH_MARKER)   # the copies are mutated, their sessions wait for the plan
                outcomes = ahead.go(part, dispatcher)
            finally:
                if outcomes is None:
                    ahead.cancel()
                clear_stale_scratch(store, run_id, runner)
        else:
            ahead.cancel()
            clear_stale_scratch(store, run_id, runner)
        if outcomes is not None:
            merged = lanes_mod.merge([data for data, _ in outcomes], len({n for _, _, t in orders[0] for n in t}))
            return ({**merged.get("results", {}), "baseline": merged.get("baseline", {}),
                     "durations": merged.get("durations", {}), "killers": merged.get("killers", {}), "ahead": True, "box_s": budget.seconds},
                    outcomes[0][1], len(outcomes))
        dispatcher = Dispatcher(plan.order(), budget.seconds, GRACE_FACTOR, admit, decoys=set(plan.decoys)) if dispatcher else None
    dirs = scratch_mod.take_prepared(store, run_id, len(orders))
    if dirs is None:
        clear_stale_scratch(store, run_id, runner)
        store.audit_scratch(run_id).mkdir(exist_ok=True)  # a shared one (scratch.py) stays
        dirs = scratch_mod.lane_dirs(store, run_id, len(orders))
    workspace = store.workspace(run_id)
    try:
        mutated = scratch_mod.mutated_sources(workspace, plan)  # in this thread (see there)
        _each(lambda lane: scratch_mod.fill_lane(workspace, lane, mutated), dirs)
        crash_hook(CRASH_MARKER)
        outcomes = _each(lambda k: _run_lane(state, dirs[k], orders[k], plan, budget, test_s, (dispatcher, k, len(dirs)), runner),
                         range(len(dirs)))
    except INTERRUPTS:  # Ctrl+C/SIGTERM: every lane's session dies now, before the copies are cleared
        kill_children()
        raise
    finally:  # the lanes' own workers, anything still running in the copies, and the copies go
        clear_stale_scratch(store, run_id, runner)  # (a shared lane's directory is emptied, see scratch.py)
    planned = len({n for order in orders for _, _, tests in order for n in tests})
    merged = lanes_mod.merge([data for data, _ in outcomes], planned)
    return ({**merged.get("results", {}), "baseline": merged.get("baseline", {}),
             "durations": merged.get("durations", {}), "killers": merged.get("killers", {}), "box_s": budget.seconds},
            outcomes[0][1], len(dirs))


def _each(work, items) -> list:
    """work(item) for every item, the first in this thread and the others in threads at once; the
    results in order. The first exception any of them raised is raised after all have ended, except
    an interrupt in this thread: raised at once (the other threads are daemons; the caller's cleanup
    kills their sessions, see clear_stale_scratch)."""
    import threading

    items = list(items)
    results: list = [None] * len(items)
    errors: list[BaseException | None] = [None] * len(items)

    def one(i: int) -> None:
        try:
            results[i] = work(items[i])
        except BaseException as exc:  # noqa: BLE001 - re-raised below, after the other lanes end
            errors[i] = exc

    from harness.interrupts import INTERRUPTS, join

    threads = [threading.Thread(target=one, args=(i,), name=f"audit-lane-{i}", daemon=True)
               for i in range(1, len(items))]
    for thread in threads:
        thread.start()
    if items:
        one(0)
    if isinstance(errors[0] if items else None, INTERRUPTS):
        raise errors[0]   # Ctrl+C/SIGTERM: the caller's cleanup stops the other lanes' sessions
    for thread in threads:
        join(thread)
    first = next((e for e in errors if e is not None), None)
    if first is not None:
        raise first
    return results


def _run_lane(state: RunState, lane: Path, order: list, plan: AuditPlan, budget: AuditBudget,
              test_s: dict[str, float], queue: tuple = (None, 0), runner=None) -> tuple[dict, str]:
    """(the runner's result, the command as shown) of one lane's session over its copy; `queue`:
    (the audit's Dispatcher or None, this lane's number[, how many lanes share it]) — with one, the
    lane asks it for mutants."""
    import threading

    from harness.audit.dispatch import LanePipes, serve
    from harness.audit.lanes import lane_files
    from harness.interrupts import join
    from harness.verification.evidence_inputs import DigestPipe
    from harness.verification.verifier import run_command

    dispatcher, number, lanes = (*queue, 1)[:3]
    nonce = secrets.token_hex(8)
    (lane / PLAN_DIR).mkdir()
    received = own_tmp.make("out")  # the result, handed over from the session's outbox
    plan_path, result_path = lane / PLAN_DIR / "plan.json", received / RESULT_NAME
    pipes = LanePipes() if dispatcher is not None else None
    plan_path.write_text(json.dumps({"nonce": nonce, "seconds": budget.seconds, "order": order,
                                     "tests": plan.tests, "result": str(result_path), "method": budget.method,
                                     "test_s": test_s, **({"dispatch": list(pipes.lane_fds), "lanes": lanes} if pipes else {})}),
                         encoding="utf-8")
    pipe = DigestPipe()
    command = _command(plan_path, lane_files(order), pipe.write_fd, budget.method)
    stop = threading.Event()
    server = threading.Thread(target=serve, args=(dispatcher, number, pipes.ask_read, pipes.answer_write, stop),
                              name=f"audit-queue-{number}", daemon=True) if pipes else None
    if server is not None:
        server.start()
    try:
        try:
            res = run_command(command, lane, task_id="AUDIT", run_id=state.run_id, runner=runner,
                              timeout_s=budget.seconds * GRACE_FACTOR + _STARTUP_S,
                              pass_fds=(pipe.write_fd, *(pipes.lane_fds if pipes else ())),
                              collect={RESULT_NAME: result_path})
        finally:
            sent = pipe.received()
            if pipes is not None:
                pipes.close_lane_side()
                stop.set()
                join(server)
                pipes.close()
        return lane_result(result_path, sent, nonce, res), shown_command(command, lane, pipe.write_fd)
    finally:
        shutil.rmtree(received, ignore_errors=True)


def lane_result(result_path: Path, sent: str, nonce: str, res) -> dict:
    """A lane's result file, checked against the digest it sent and its nonce (RunDataError when
    the lane produced none: `res` is its command's result, None when it never returned one)."""
    try:
        data = _read_result(result_path, sent) if result_path.is_file() else {}
    except ValueError:
        data = {}
    if data.get("nonce") != nonce:
        tail = ((res.stderr or res.stdout) if res is not None else "").strip()[-300:]
        raise RunDataError(f"the mutation audit produced no result "
                           f"(exit {res.exit_code if res is not None else None}): {tail}")
    return data


def shown_command(command: str, lane: Path, digest_fd: int) -> str:
    """A lane's command as audit.json shows it: no scratch path, no descriptor number."""
    return command.replace(str(lane), "<audit-workspace>").replace(
        f"--harness-mutants-digest-fd={digest_fd}", "--harness-mutants-digest-fd=<fd>")


def _plan(store: RunStore, run_id: str, evidence: dict, workspace: Path, digest: str, budget: AuditBudget,
          ahead=None, runner=None):
    """(the plan, the lanes started ahead that can serve it, or None). The plan is the same either
    way; lanes (`ahead`, handed over by the speed door) that cannot serve it — other bytes than the
    evidenced workspace (harness/speed/validity.py), a mutant their copy lacks — are given up."""
    from harness.audit.scratch import lane_count

    if ahead is not None and ahead.serves(evidence, digest, lane_count()):
        try:
            return make_plan(evidence, workspace, budget.max_mutants, budget.seed, ids=ahead.ids), ahead
        except KeyError:
            pass
    if ahead is not None:
        ahead.cancel()
        clear_stale_scratch(store, run_id, runner)
    return make_plan(evidence, workspace, budget.max_mutants, budget.seed), None


def _decoy_note(entry: dict) -> str:
    """What the requirement's decoys showed, for its audit line (pytest_harness/decoy_verdict.py)."""
    decoys = entry.get("decoys") or []
    found = entry.get("detectors") or {}
    if found:
        return (f"; {len(found)} test{'s' if len(found) != 1 else ''} failed on a decoy (no behaviour change: "
                f"a mutant detector): {', '.join(sorted(found))}; {entry.get('void', 0)} kills void")
    return f"; {sum(d['result'] == 'passed' for d in decoys)}/{len(decoys)} decoys passed" if decoys else ""


def audit_run(store: RunStore, state: RunState, budget: AuditBudget = AuditBudget(),
              say: Callable[[str], None] = print, runner=None, lanes_ahead=None) -> dict:
    """Audit the run's latest whole-suite evidence; write and return audit.json. `runner`: how the
    lanes' sessions may run besides cold, `lanes`: lanes filled ahead — both from the speed door
    (harness/speed/door.py), None without speed."""
    from pytest_harness.snapshot import snapshot_files

    run_id = state.run_id
    evidence = store.read_workspace_evidence(run_id)
    if not evidence or not evidence.get("complete"):
        raise RunDataError(f"run {run_id} has no complete workspace evidence to audit; "
                           f"`builder resume {run_id}` verifies it first")
    events = store.events(state)
    workspace = store.workspace(run_id)
    before = snapshot_files(workspace)["digest"]
    started = time.monotonic()
    plan, ahead = _plan(store, run_id, evidence, workspace, before, budget, lanes_ahead, runner)
    events.emit("audit", "started", agent="auditor", tool="mutation", mutants=len(plan.chosen),
                requirements=sorted(plan.mutants))
    results, command, lanes = ({}, "", 0)
    if plan.chosen:
        results, command, lanes = _run_mutants(store, state, plan, budget, evidence_seconds(evidence, plan), ahead,
                                               runner)
        extra = replacement_plan(plan, results, evidence, workspace, budget.max_mutants, budget.seed)
        if extra.chosen:   # an invalid mutant's replacement, once (replacements.py)
            more, _command, _lanes = _run_mutants(store, state, extra, budget, evidence_seconds(evidence, extra),
                                                  None, runner)
            results = merge(plan, extra, results, more)
    elif ahead is not None:
        ahead.cancel()
        clear_stale_scratch(store, run_id, runner)
    after = snapshot_files(workspace)["digest"]
    if after != before:  # cannot happen by design (only the scratch copy is mutated): say so loudly
        raise RunDataError(f"the workspace of run {run_id} changed during the audit; re-verify it")
    reqs, common = summarize(plan, results), shared_summary(plan, results)
    doc = {"schema_version": SCHEMA_VERSION, "run_id": run_id, "evidence_digest": evidence["snapshot"].get("digest"),
           "workspace_digest": before, "seed": budget.seed, "max_mutants": budget.max_mutants,
           "seconds": budget.seconds, "box_s": results.get("box_s", budget.seconds), "method": (results.get("baseline") or {}).get("method", budget.method),
           "command": command, "lanes": lanes, "duration_ms": int((time.monotonic() - started) * 1000),
           "complete": all(r["not_run"] == 0 for r in reqs.values()),
           "baseline": results.get("baseline"),
           "lanes_ahead": bool(results.get("ahead")),
           "mutant_s": results.get("durations", {}),
           "requirements": reqs, "shared": common}
    store.write_artifact(run_id, "audit", doc)
    for rid, r in reqs.items():
        status = "skipped" if r["skipped"] else ("killed" if r["killed"] else "survived")
        events.emit("audit", status, agent="auditor", tool="mutation", error=r["skipped"] or "",
                    requirement=rid, mutants=r["mutants"], killed=r["killed"], invalid=r["invalid"],
                    not_run=r["not_run"])
        judged = r["killed"] + len(r["survived"])
        say(f"  audit {rid}: " + (r["skipped"] or f"{r['killed']}/{judged} mutants killed"
                                  + (f" (+{r['elsewhere']} killed only by other requirements' tests: not counted)"
                                     if r.get("elsewhere") else "")
                                  + (f", {r['invalid']} invalid (not a kill)" if r["invalid"] else "")
                                  + (f", {r['not_run']} not run (time box)" if r["not_run"] else "")
                                  + _decoy_note(r)))
    if common["mutants"]:
        say(f"  audit shared lines: {common['mutants']} mutants judged by the whole suite — {common['killed']} killed "
            f"by the requirement's own tests, {common['elsewhere']} by another's, {common['survived']} by none")
    events.emit("audit", "completed", agent="auditor", tool=command, duration_ms=doc["duration_ms"],
                mutants=sum(r["mutants"] for r in reqs.values()), killed=sum(r["killed"] for r in reqs.values()))
    return doc
