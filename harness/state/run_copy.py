"""A copy of a finished run under a new id (`<id>-inject-N`): what `builder inject` breaks and
repairs, so the user's run is never changed by it.

Everything is copied (workspace, evidence, checkpoints, artifacts) except the lock and the audit's
scratch copies; state.json and each checkpoint are re-labelled with the new id (their other
bytes unchanged, so the copy passes the same checkpoint checks). Evidence documents keep the
original id: they are digest-checked bytes, and the copy only re-uses none of them.
"""

from __future__ import annotations

import json
import os
import shutil

from harness.errors import InputError
from harness.models.run import RunState
from harness.state.store import RunStore
from harness.utils.ids import valid_run_id

MAX_COPIES = 999


def copy_id(store: RunStore, run_id: str, kind: str) -> str:
    """The first free `<run_id>-<kind>-N`."""
    for n in range(1, MAX_COPIES + 1):
        candidate = f"{run_id}-{kind}-{n}"
        if not valid_run_id(candidate):
            raise InputError(f"run id {run_id!r} is too long to name its {kind} copy")
        if not os.path.lexists(store.run_dir(candidate)):
            return candidate
    raise InputError(f"run {run_id} already has {MAX_COPIES} {kind} copies; remove some")


def copy_run(store: RunStore, run_id: str, kind: str) -> str:
    """Copy run `run_id` (locked while copied) to a new run `<run_id>-<kind>-N`; the new id."""
    with store.lock(run_id):
        store.checked(run_id)   # a damaged run is not copied (exit 3), an unknown one is 4
        new_id = copy_id(store, run_id, kind)
        source, target = store.run_dir(run_id), store.run_dir(new_id)
        skip = {store.lock_path(run_id).name, store.audit_scratch(run_id).name}
        shutil.copytree(source, target, symlinks=True,
                        ignore=lambda where, names: [n for n in names if os.path.join(where, n) in
                                                     {str(source / s) for s in skip}])
    try:
        state = RunState.model_validate_json(store.state_path(new_id).read_text(encoding="utf-8"))
        state.run_id = new_id
        store.save(state)
        for path in sorted(store.checkpoints_dir(new_id).glob("*.json")):
            _relabel(path, run_id, new_id)
    except (OSError, ValueError):
        shutil.rmtree(target, ignore_errors=True)
        raise
    return new_id


def _relabel(path, old: str, new: str) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(doc, dict) and doc.get("run_id") == old:
        doc["run_id"] = new
        path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
