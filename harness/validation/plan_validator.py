"""PlanValidator: structural and ordering rules of the task DAG (SPEC M3), as list[str]."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from harness.models.spec import AppSpec
from harness.models.tasks import Task
from harness.sandbox.commands import command_problem
from harness.utils.ids import TASK_ID_RE
from harness.utils.workspace_layout import LAYER_NEEDS, layer

MAX_FILES_PER_TASK = 5
NAME_MAX_BYTES = 255  # NAME_MAX of Linux file systems
TASK_RANGE = (5, 12)


def path_error(path: str) -> str | None:
    """Why `path` is not a relative POSIX workspace path, or None when it is fine."""
    if not path or path.strip() != path:
        return "empty or padded path"
    if "\\" in path or "\x00" in path:
        return "not a POSIX path"
    if path.startswith("/") or re.match(r"^[A-Za-z]:", path):
        return "absolute path"
    if ".." in PurePosixPath(path).parts:
        return "path escapes the workspace (..)"
    if path.endswith("/"):
        return "path is a directory"
    if any(len(part.encode("utf-8")) > NAME_MAX_BYTES for part in path.split("/")):
        return f"a file or directory name is longer than {NAME_MAX_BYTES} bytes"
    return None


def ancestors(task_id: str, by_id: dict[str, Task]) -> set[str]:
    """Every task `task_id` depends on, transitively (unknown ids ignored)."""
    seen: set[str] = set()
    stack = list(by_id[task_id].depends_on) if task_id in by_id else []
    while stack:
        dep = stack.pop()
        if dep in seen or dep not in by_id:
            continue
        seen.add(dep)
        stack.extend(by_id[dep].depends_on)
    return seen


def structural_errors(tasks: list[Task]) -> list[str]:
    errors: list[str] = []
    ids = [t.id for t in tasks]
    for tid in sorted({i for i in ids if ids.count(i) > 1}):
        errors.append(f"duplicate task id {tid}")
    known = set(ids)
    for task in tasks:
        if not TASK_ID_RE.match(task.id):
            errors.append(f"task id {task.id!r} does not match TASK-NNN")
        if not task.requirements:
            errors.append(f"{task.id} has no requirement")
        if not task.files_touched:
            errors.append(f"{task.id} touches no file")
        if not task.verification:
            errors.append(f"{task.id} has no verification command")
        for command in task.verification:
            if (why := command_problem(command)) is not None:
                errors.append(f"{task.id} verification command `{command}` refused: {why}")
        if len(task.files_touched) > MAX_FILES_PER_TASK:
            errors.append(f"{task.id} touches {len(task.files_touched)} files (max {MAX_FILES_PER_TASK})")
        for path in task.files_touched:
            why = path_error(path)
            if why:
                errors.append(f"{task.id} has invalid path {path!r}: {why}")
        for dep in task.depends_on:
            if dep not in known:
                errors.append(f"{task.id} depends on unknown task {dep}")
            elif dep == task.id:
                errors.append(f"{task.id} depends on itself")
    return errors


def find_cycle(tasks: list[Task]) -> list[str] | None:
    """One dependency cycle as a list of ids, or None."""
    by_id = {t.id: t for t in tasks}
    color: dict[str, int] = {}
    path: list[str] = []

    def visit(tid: str) -> list[str] | None:
        color[tid] = 1
        path.append(tid)
        for dep in sorted(by_id[tid].depends_on):
            if dep not in by_id:
                continue
            if color.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in color and (found := visit(dep)):
                return found
        color[tid] = 2
        path.pop()
        return None

    for tid in sorted(by_id):
        if tid not in color and (found := visit(tid)):
            return found
    return None


def topological_order(tasks: list[Task], tie_key=None) -> list[str]:
    """Kahn's algorithm over the known dependencies; ties broken by `tie_key(id)` (default: the id).

    PlanError on a cycle; call find_cycle first when the cycle itself should be reported.
    """
    from harness.errors import PlanError

    remaining = {t.id: {d for d in t.depends_on if d != t.id} for t in tasks}
    known = set(remaining)
    for deps in remaining.values():
        deps &= known
    order: list[str] = []
    while remaining:
        ready = [tid for tid, deps in remaining.items() if not deps]
        if not ready:
            raise PlanError("dependency cycle among " + ", ".join(sorted(remaining)))
        tid = min(ready, key=tie_key) if tie_key else min(ready)
        order.append(tid)
        del remaining[tid]
        for deps in remaining.values():
            deps.discard(tid)
    return order


def ordering_errors(tasks: list[Task]) -> list[str]:
    """Dependencies only on earlier tasks; schema before logic; components/auth before their users."""
    errors = []
    index = {t.id: i for i, t in enumerate(tasks)}
    by_id = {t.id: t for t in tasks}
    for task in tasks:
        for dep in task.depends_on:
            if dep in index and index[dep] >= index[task.id]:
                errors.append(f"{task.id} depends on later task {dep}")
    owners: dict[str, list[str]] = {}
    for task in tasks:
        for role in {layer(p) for p in task.files_touched}:
            owners.setdefault(role, []).append(task.id)
    for task in tasks:
        before = ancestors(task.id, by_id)
        for role in sorted({layer(p) for p in task.files_touched}):
            for need in LAYER_NEEDS.get(role, ()):
                for owner in owners.get(need, []):
                    if owner != task.id and owner not in before:
                        errors.append(f"{task.id} ({role}) must depend on {owner} ({need} first)")
    return errors


def coverage_errors(tasks: list[Task], spec: AppSpec | None) -> list[str]:
    if spec is None:
        return []
    errors = []
    known = {r.id for r in spec.requirements}
    covered = {r for t in tasks for r in t.requirements}
    for req in spec.requirements:
        if req.id not in covered:
            errors.append(f"orphan requirement {req.id}: no task covers it")
    for task in tasks:
        for rid in task.requirements:
            if rid not in known:
                errors.append(f"{task.id} refers to unknown requirement {rid}")
    return errors


def validate_plan(tasks: list[Task], spec: AppSpec | None = None) -> list[str]:
    """All errors of the plan (empty = valid)."""
    errors = structural_errors(tasks) + coverage_errors(tasks, spec)
    cycle = find_cycle(tasks)
    if cycle:
        errors.append("dependency cycle: " + " -> ".join(cycle))
    else:
        errors += ordering_errors(tasks)
    return errors


def plan_warnings(tasks: list[Task]) -> list[str]:
    """Non-fatal observations: overlapping files, task count outside the small-app range."""
    warnings = []
    seen: dict[str, str] = {}
    for task in tasks:
        for path in task.files_touched:
            if path in seen:
                warnings.append(f"{path} is touched by {seen[path]} and {task.id}")
            seen.setdefault(path, task.id)
    if not TASK_RANGE[0] <= len(tasks) <= TASK_RANGE[1]:
        warnings.append(f"{len(tasks)} tasks (small apps usually have {TASK_RANGE[0]}-{TASK_RANGE[1]})")
    return warnings


class PlanValidator:
    def validate(self, tasks: list[Task], spec: AppSpec | None = None) -> list[str]:
        return validate_plan(tasks, spec)
