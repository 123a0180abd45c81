"""`builder adopt <run_id> FILE...`: make files the user added to a run's workspace part of its build.

A workspace file no task created voids every requirement ("not part of the build"): a planted file
(a zip a conftest imports, a plugin) must not ride along with the evidence. A user who adds a test
of their own to a delivered app says so here, outside the workspace; the run's state records the
path. Adopting executes nothing and proves nothing: the file's tests count only after a fresh
re-verification (`pytest --harness-run <id>`) ran them, and a change to an adopted file after
verification still voids every requirement.
"""

from __future__ import annotations

from pathlib import Path

from harness.commands.base import Command, require_spec, run_id_options, store_for
from harness.errors import EXIT_OK, InputError


def adoptable(workspace: Path, owned: set[str], rel: str) -> str:
    """The workspace-relative path of `rel` when it may be adopted, else InputError saying why."""
    from pytest_harness.snapshot import snapshot_files

    root = workspace.resolve()
    path = (root / rel) if not Path(rel).is_absolute() else Path(rel)
    try:
        clean = path.resolve().relative_to(root).as_posix()
    except ValueError:
        raise InputError(f"{rel}: not inside the run's workspace {workspace}") from None
    if path.is_symlink() or not path.resolve().is_file():
        raise InputError(f"{rel}: not a regular file in the workspace")
    if clean in owned:
        raise InputError(f"{clean}: already part of the build (a task created it)")
    if clean not in snapshot_files(workspace)["files"]:
        raise InputError(f"{clean}: not a file the evidence covers (see docs/plugin.md)")
    return clean


def cmd_adopt(args) -> int:
    store = store_for(args)
    with store.lock(args.run_id):
        state = store.checked(args.run_id)
        require_spec(state)
        if not state.plan:
            raise InputError(f"run {state.run_id} has no plan: nothing to adopt files into")
        owned = {f for t in state.plan.tasks for f in t.files_touched}
        workspace = store.workspace(state.run_id)
        new = [adoptable(workspace, owned, rel) for rel in args.files]
        state.adopted_files = sorted(set(state.adopted_files) | set(new))
        store.save(state)
        store.events(state).emit("adopt", "OK", agent="user", tool="builder adopt", files=new)
    for rel in new:
        print(f"adopted {rel}")
    print(f"nothing was run: re-verify with `pytest --harness-run {state.run_id}` "
          f"(its tests then count like the build's own)")
    return EXIT_OK


def _arguments(p) -> None:
    run_id_options(p)
    p.add_argument("files", nargs="+", metavar="FILE", help="workspace-relative path of a file you added")


ADOPT = Command("adopt", "make files you added to a run's workspace part of its build", _arguments, cmd_adopt)
