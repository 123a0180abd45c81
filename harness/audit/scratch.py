"""The audit's scratch copies: one per lane, each with its own sandbox and warm worker.

The run's scratch directory (RunStore.audit_scratch) holds one directory per lane, `0`, `1`, ...:
each is a full mutated copy of the workspace, verified by its own sandboxed pytest session, so
the lanes share no file and a mutant's verdict never depends on what another lane runs beside
it. `lane_count` is the number of cores, at most MAX_LANES (HARNESS_AUDIT_LANES sets it). When the
run starts, the lanes' directories are created empty and bound (read-only) into the sandbox of the
run's verification worker (`share_with_verification`); the audit fills the same directories (never
recreates them) and each lane is served by a clone of that worker, forked inside its sandbox
(the speed door's runner, harness/speed/) — the lanes run at once and no lane pays a worker's
imports again on the two cores the build is using. Without a live verification worker (`builder
audit` of a finished run) the speed door starts the first lane's worker early over the lanes
`prepare_lanes` made, with the other lanes bound beside it, served by its clones. This module
never reaches a worker: whatever serves a lane's directory is ended through the runner the audit
was given (`runner.release`). A shared lane's directory is never removed while the run lives (the
bind holds that directory): clearing it empties it. A stale
scratch directory a killed run left — copies, processes, workers — is cleared before anything
else touches it (`clear_stale_scratch`); generated code that wrote into it during the build loses
what it wrote before the audit copies anything there.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from harness.audit.mutator import apply
from harness.audit.plan import AuditPlan
from harness.state.store import RunStore

ENV_LANES = "HARNESS_AUDIT_LANES"
MAX_LANES = 2

_PREPARED: set[str] = set()  # scratch directories this process created with empty lanes (prepare_lanes)
_SHARED: set[str] = set()    # scratch directories whose SHARED_LANES a live verification worker's sandbox binds
SHARED_LANES = frozenset(str(k) for k in range(4))  # the lanes bound into the verification worker's sandbox


def lane_count() -> int:
    """How many lanes the audit runs: HARNESS_AUDIT_LANES (1-4) or the cores, at most MAX_LANES."""
    raw = os.environ.get(ENV_LANES, "").strip()
    if raw.isdigit() and 1 <= int(raw) <= 4:
        return int(raw)
    return max(1, min(MAX_LANES, os.cpu_count() or 1))


def lane_dirs(store: RunStore, run_id: str, lanes: int) -> list[Path]:
    scratch = store.audit_scratch(run_id)
    return [scratch / str(k) for k in range(lanes)]


def mutated_sources(workspace: Path, plan: AuditPlan) -> dict[str, str]:
    """{file: its source with the plan's mutants compiled in behind their guards}. Call it in one
    thread: CPython 3.11's ast module is not safe to use from two threads at once (seen here as
    `SystemError: AST constructor recursion depth mismatch` when two lanes parsed concurrently)."""
    return {rel: apply((workspace / rel).read_text(encoding="utf-8"), keys) for rel, keys in plan.by_file().items()}


def fill_lane(workspace: Path, lane: Path, mutated: dict[str, str]) -> None:
    """Fill `lane` (absent, or an empty directory prepare_lanes made) with the mutated
    copy: the workspace's files, then the `mutated_sources` over their originals (files only, so
    lanes may be filled from threads)."""
    shutil.copytree(workspace, lane, symlinks=True, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "*.db"))
    for rel, text in mutated.items():
        (lane / rel).write_text(text, encoding="utf-8")


def _only_empty_lanes(scratch: Path) -> bool:
    """True when `scratch` holds nothing but empty lane directories (a prestart's, never a copy)."""
    for entry in scratch.iterdir():
        if not (entry.name.isdigit() and entry.is_dir() and not entry.is_symlink() and not any(entry.iterdir())):
            return False
    return True


def clear_stale_scratch(store: RunStore, run_id: str, runner=None) -> bool:
    """Kill what an interrupted audit left running in the scratch copies and remove them; True if
    there was a copy (empty lane directories are only a prestart's, see prepare_lanes: removed,
    False). In a shared scratch directory (share_with_verification) the shared lanes' directories
    are emptied, not removed. `runner` (the speed door's, or None): ends what it serves there."""
    from harness.sandbox.runner import sweep_leftovers

    scratch = store.audit_scratch(run_id)
    if not scratch.exists() and not scratch.is_symlink():
        return False
    if scratch.is_dir() and not scratch.is_symlink():
        copied = not _only_empty_lanes(scratch)
        inner = [p for p in scratch.iterdir() if p.is_dir() and not p.is_symlink()]
        sweep_leftovers(scratch, *inner)  # the scratch itself: a copy from before lanes existed
        if runner is not None:
            for place in (scratch, *inner):
                runner.release(place)
        if os.path.realpath(scratch) in _SHARED:
            _empty(scratch, keep=SHARED_LANES)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
        return copied
    scratch.unlink(missing_ok=True)  # never follow a link out of the run directory
    return True


def _empty(directory: Path, keep: frozenset[str] = frozenset()) -> None:
    """Remove everything inside `directory` (links removed, never followed), keep the directory;
    the subdirectories named in `keep` are emptied the same way instead of removed."""
    for entry in directory.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            if entry.name in keep:
                _empty(entry)
            else:
                shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def share_with_verification(store: RunStore, run_id: str) -> list[Path]:
    """At the start of a run, before its verification worker starts: the lane directories
    (SHARED_LANES), cleared and created empty, for that worker's sandbox to bind and its clones to
    serve (none when they cannot be made)."""
    lanes = lane_dirs(store, run_id, lane_count())
    if not lanes:
        return []
    scratch = store.audit_scratch(run_id)
    if os.path.realpath(scratch) not in _SHARED:
        clear_stale_scratch(store, run_id)
        try:
            scratch.mkdir()
            for lane in lanes:
                lane.mkdir()
        except OSError:
            shutil.rmtree(scratch, ignore_errors=True)
            return []
        _SHARED.add(os.path.realpath(scratch))
    return lanes


def prepare_lanes(store: RunStore, run_id: str) -> list[Path]:
    """Create the run's scratch directory with an empty directory per lane, for the speed door to
    start the lanes' worker over them early (harness/speed/warm_start.py) so its imports overlap the
    build instead of delaying the audit. The lanes made, or [] when this process already prepared
    them or they cannot be made."""
    scratch = store.audit_scratch(run_id)
    if os.path.realpath(scratch) in _PREPARED and scratch.is_dir():
        return []  # already prepared (and its workers started) by this process
    clear_stale_scratch(store, run_id)
    lanes = lane_dirs(store, run_id, lane_count())
    try:
        scratch.mkdir(exist_ok=os.path.realpath(scratch) in _SHARED)
        for lane in lanes:
            lane.mkdir(exist_ok=lane.name in SHARED_LANES and os.path.realpath(scratch) in _SHARED)
    except OSError:
        clear_stale_scratch(store, run_id)
        return []
    _PREPARED.add(os.path.realpath(scratch))
    return lanes


def release_audit_workers(store: RunStore, run_id: str, runner=None) -> None:
    """At the end of a run, after its verification worker stopped: stop (through `runner`)
    prestarted audit workers the audit never used and remove the scratch directory (a shared one
    too: nothing binds it now)."""
    # (the speed door's cancel has already waited for an audit started ahead and given up lanes
    # filled ahead: harness/speed/door.py)
    scratch = store.audit_scratch(run_id)
    real = os.path.realpath(scratch)
    if real in _PREPARED or real in _SHARED:
        _PREPARED.discard(real)
        _SHARED.discard(real)
        clear_stale_scratch(store, run_id, runner)


def take_prepared(store: RunStore, run_id: str, lanes: int) -> list[Path] | None:
    """The first `lanes` of the lane directories prepare_lanes made in this process, all
    still empty (a plan with fewer lanes leaves the others unused; else None: the audit clears the
    scratch directory and starts afresh)."""
    scratch = store.audit_scratch(run_id)
    real = os.path.realpath(scratch)
    if real not in _PREPARED:
        return None
    _PREPARED.discard(real)
    dirs = lane_dirs(store, run_id, lanes)
    if not (scratch.is_dir() and not scratch.is_symlink() and _only_empty_lanes(scratch)
            and all(d.is_dir() and not d.is_symlink() for d in dirs)):
        return None
    return dirs
