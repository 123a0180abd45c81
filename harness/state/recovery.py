"""Resume checks: does state.json agree with its checkpoint log? (read-only) + status rebuild.

The checkpoint history implies a status per task (task_started -> RUNNING, task_completed ->
COMPLETED, task_failed -> FAILED; verification_completed / repair_started happen inside a task
run and imply nothing new). state.json may be *ahead* of its last checkpoint only in ways the
pipeline itself produces without a checkpoint (BLOCKED propagation, RUNNING reset to PENDING by an
earlier resume); anything else is a contradiction and resume refuses to guess.
"""

from __future__ import annotations

from pathlib import Path

from harness.errors import RunDataError
from harness.models.enums import TaskStatus
from harness.models.run import RunState
from harness.state.checkpoints import CheckpointLog

_T = TaskStatus
# state.json status -> checkpoint-implied statuses it may legitimately sit on.
_ALLOWED = {
    _T.COMPLETED: {_T.COMPLETED},
    _T.FAILED: {_T.FAILED},
    _T.TIMED_OUT: {_T.FAILED},
    _T.BLOCKED: {_T.PENDING, _T.COMPLETED},   # blocked before starting, or by `builder inject`
    _T.RUNNING: {_T.RUNNING},
    _T.PENDING: {_T.PENDING, _T.RUNNING},     # RUNNING already reset by an earlier resume
    _T.READY: {_T.PENDING, _T.RUNNING},
}


def check_against_checkpoints(state: RunState, log: CheckpointLog, state_path: Path) -> tuple[list[dict], str | None]:
    """Validate the log and its agreement with `state`; (documents in order, pending name or None).

    The pending name is the one crash window of RunStore.checkpoint: state.json lists one more
    checkpoint than the directory holds and that checkpoint's document waits as `.<name>.pending`.
    Raises RunDataError naming the offending file; never writes anything.
    """
    names = log.names()
    listed = list(state.checkpoints)
    pending = None
    if listed != names:
        if (len(listed) == len(names) + 1 and listed[:-1] == names
                and listed[-1].startswith(f"{len(names) + 1:03d}-") and log.pending_path(listed[-1]).is_file()):
            pending = listed[-1]
        else:
            raise RunDataError(f"{state_path}: {_list_mismatch(listed, names, log.directory)}; "
                               "the state contradicts the checkpoints, nothing was changed")
    docs = [log.read(name) for name in names]
    if pending:
        docs.append(log.read(pending, log.pending_path(pending)))
    for name, doc in zip(listed, docs):
        if doc.get("run_id") != state.run_id:
            raise RunDataError(f"{log.directory / name}: corrupt checkpoint (run_id {doc.get('run_id')!r}, "
                               f"expected {state.run_id!r})")
    problem = _task_problem(state, docs)
    if problem:
        raise RunDataError(f"{state_path}: {problem}; the state contradicts the checkpoints in "
                           f"{log.directory}, nothing was changed")
    return docs, pending


def _list_mismatch(listed: list[str], names: list[str], directory: Path) -> str:
    common = 0
    while common < min(len(listed), len(names)) and listed[common] == names[common]:
        common += 1
    if common == len(names):
        return f"lists checkpoint {listed[common]} which {directory} does not hold ({len(listed)} listed, {len(names)} on disk)"
    if common == len(listed):
        return f"lists {len(listed)} checkpoints but {directory} holds {len(names)} (first unlisted: {names[common]})"
    return f"lists checkpoint #{common + 1} as {listed[common]} but {directory} holds {names[common]}"


def replay(docs: list[dict]) -> tuple[dict[str, TaskStatus], dict[str, dict], set[str]]:
    """(task statuses the history implies, file hashes of the last task_completed, events seen)."""
    statuses: dict[str, TaskStatus] = {}
    hashes: dict[str, dict] = {}
    seen: set[str] = set()
    for doc in docs:
        event, tid = doc["event"], doc.get("task_id")
        seen.add(event)
        if event == "plan_created":
            statuses = {t: _T.PENDING for t in doc.get("tasks", [])}
        elif event == "task_started":
            statuses[tid] = _T.RUNNING
        elif event == "task_completed":
            statuses[tid] = _T.COMPLETED
            hashes[tid] = doc.get("file_hashes", {})
        elif event == "task_failed":
            statuses[tid] = _T.FAILED
    return statuses, hashes, seen


def _task_problem(state: RunState, docs: list[dict]) -> str:
    statuses, hashes, seen = replay(docs)
    if (state.spec is None) == ("spec_created" in seen):
        return ("it has no spec but a spec_created checkpoint exists" if state.spec is None
                else "it has a spec but no spec_created checkpoint")
    if (state.plan is None) == ("plan_created" in seen):
        return ("it has no plan but a plan_created checkpoint exists" if state.plan is None
                else "it has a plan but no plan_created checkpoint")
    plan_ids = sorted(t.id for t in state.plan.tasks) if state.plan else []
    if sorted(state.task_results) != plan_ids:
        return f"task_results lists {sorted(state.task_results)} but the plan has {plan_ids}"
    if state.plan and sorted(statuses) != plan_ids:
        return f"the checkpoints name tasks {sorted(statuses)} but the plan has {plan_ids}"
    for tid in plan_ids:
        mine, theirs = state.task_results[tid], statuses[tid]
        if theirs not in _ALLOWED[mine]:
            return f"{tid} is {mine.value} but the checkpoints say {theirs.value}"
        if mine == _T.COMPLETED and state.file_hashes.get(tid) != hashes.get(tid):
            return f"the file hashes of {tid} differ from its task_completed checkpoint"
    return ""


def rebuild_statuses(state: RunState) -> list[str]:
    """SPEC M9: keep COMPLETED/FAILED/TIMED_OUT/BLOCKED, RUNNING and READY -> PENDING; the reset ids."""
    reset = []
    for tid, status in state.task_results.items():
        if status in (_T.RUNNING, _T.READY):
            state.task_results[tid] = _T.PENDING
            reset.append(tid)
    return sorted(reset)
