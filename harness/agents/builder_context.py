"""What the builder sees of the code it builds on, within a character budget: the dependency tasks
as one line each, their files ranked by what the task most needs — what its own files import (a
test file: the conftest.py above it, and one example test), then what most other dependency files import, then the
nearest dependencies — and shown whole, as interfaces or as names (`code_outline`, in the spirit of
Aider's repo map) while they fit; on a rebuild, the task's own files."""

from __future__ import annotations

import json
from pathlib import Path

from harness.agents.code_outline import imported_paths, interface, names
from harness.models.results import VerificationResult
from harness.models.tasks import Plan, Task

__all__ = ["CONTEXT_BUDGET_CHARS", "OWN_FILE_CHARS", "FULL_FILE_CHARS", "dependency_tasks", "dependency_lines",
           "dependency_code", "dependency_context", "interface", "names", "read"]

CONTEXT_BUDGET_CHARS = 32_000     # dependency code alone, when no whole-prompt budget is given
OWN_FILE_CHARS = 12_000
FULL_FILE_CHARS = 12_000          # a larger dependency file is shown as its interface
CODE_KEYS = ("dependency_files", "dependency_interfaces", "dependency_names", "dependency_not_shown")


def dependency_tasks(task: Task, plan: Plan | None) -> list[Task]:
    """Every task `task` depends on, transitively; nearest first, then by id."""
    if plan is None:
        return []
    by_id = {t.id: t for t in plan.tasks}
    order, level = [], sorted(d for d in task.depends_on if d in by_id)
    seen = set(level)
    while level:
        order += level
        nxt = sorted({d for tid in level for d in by_id[tid].depends_on if d in by_id} - seen)
        seen |= set(nxt)
        level = nxt
    return [by_id[t] for t in order]


def dependency_lines(deps: list[Task], results: list[VerificationResult]) -> list[str]:
    """One line a dependency task: `TASK-002 search: src/search.py; REQ-001; PASS `cmd` exit 0`
    (its latest verification result when there is one); results of tasks not in `deps` follow."""
    latest = {r.task_id: r for r in results}

    def result(tid: str) -> str:
        r = latest.get(tid)
        return f"; {r.status} `{r.command}` exit {r.exit_code}" if r is not None else ""

    lines = [f"{d.id} {d.description}: {', '.join(d.files_touched) or 'no files'}"
             f"; {', '.join(d.requirements) or 'no requirements'}{result(d.id)}" for d in deps]
    known = {d.id for d in deps}
    return lines + [f"{tid}:{result(tid)[1:]}" for tid in latest if tid not in known]


def read(workspace: Path | None, rel: str) -> str | None:
    if workspace is None:
        return None
    from harness.sandbox.local import LocalSandbox  # through the jail: no symlink/hard link to a host file

    return LocalSandbox(workspace).read_if_file(rel)


def own_files(task: Task, workspace: Path | None) -> dict[str, str]:
    """On a rebuild, the task's own current files (each cut at OWN_FILE_CHARS)."""
    return {rel: text[:OWN_FILE_CHARS] for rel in task.files_touched
            if (text := read(workspace, rel)) is not None and text.strip()}


def entry_cost(key: str, value) -> int:
    """Characters `"key": value,` adds to the prompt's JSON (indent=1, two levels deep)."""
    return len(json.dumps(key)) + len(json.dumps(value)) + 6


def _is_test_module(rel: str) -> bool:
    base = rel.rsplit("/", 1)[-1]
    return base.startswith("test_") and base.endswith(".py")


def dependency_code(task: Task, plan: Plan | None, workspace: Path | None, budget: int) -> dict:
    """The dependency files within `budget` characters of JSON: every non-test file's names first
    (in rank order, while they fit), then in rank order each file whole (≤ FULL_FILE_CHARS), else
    its interface, as far as the budget goes; what has no room is listed by path only."""
    candidates: dict[str, str] = {}
    for dep in dependency_tasks(task, plan):
        for rel in dep.files_touched:
            text = read(workspace, rel)
            if text is not None and rel not in candidates and rel not in task.files_touched:
                candidates[rel] = text
    known = set(candidates)
    wanted: set[str] = set()          # what the task's own files import (a new test file: its conftest)
    for rel in task.files_touched:
        wanted |= imported_paths(rel, read(workspace, rel) or "", known)
    example = example_test(task, plan, candidates) if any(_is_test_module(r) for r in task.files_touched) else None
    users: dict[str, int] = dict.fromkeys(known, 0)
    for rel, text in candidates.items():
        for used in imported_paths(rel, text, known):
            users[used] += 1
    position = {rel: n for n, rel in enumerate(candidates)}      # nearest dependency first
    # what the task imports first, then the most used modules, then one example test (a task writing
    # tests): at 20 entities the models' interface matters more than a whole example of a test
    ranked = sorted(candidates, key=lambda r: (0 if r in wanted else 2 if r == example else 1, -users[r], position[r]))

    left = budget
    shown_names: dict[str, str] = {}
    for rel in ranked:
        if not _is_test_module(rel):
            line = names(rel, candidates[rel])
            if entry_cost(rel, line) <= left:
                shown_names[rel], left = line, left - entry_cost(rel, line)
    files: dict[str, str] = {}
    outlines: dict[str, str] = {}
    for rel in ranked:
        text = candidates[rel]
        freed = entry_cost(rel, shown_names[rel]) if rel in shown_names else 0
        if len(text) <= FULL_FILE_CHARS and entry_cost(rel, text) - freed <= left:
            files[rel], left = text, left - entry_cost(rel, text) + freed
        elif len(outline := interface(rel, text)) < len(text) and entry_cost(rel, outline) - freed <= left:
            outlines[rel], left = outline, left - entry_cost(rel, outline) + freed
        else:
            continue
        shown_names.pop(rel, None)
    not_shown = [rel for rel in ranked if rel not in files and rel not in outlines and rel not in shown_names]
    return {"dependency_files": files, "dependency_interfaces": outlines, "dependency_names": shown_names,
            "dependency_not_shown": not_shown}


def example_test(task: Task, plan: Plan | None, candidates: dict[str, str]) -> str | None:
    """The test module of the latest direct dependency that has one small enough to show whole:
    how this workspace's tests are written, for a task that writes tests."""
    by_id = {t.id: t for t in (plan.tasks if plan else [])}
    for tid in sorted((d for d in task.depends_on if d in by_id), reverse=True):
        for rel in by_id[tid].files_touched:
            if _is_test_module(rel) and rel in candidates and len(candidates[rel]) <= FULL_FILE_CHARS:
                return rel
    return None


def dependency_context(task: Task, plan: Plan | None, workspace: Path | None,
                       budget: int = CONTEXT_BUDGET_CHARS, results: list[VerificationResult] | None = None) -> dict:
    """{"dependency_tasks", "dependency_files", "dependency_interfaces", "dependency_names",
    "dependency_not_shown", "own_files"}, the dependency code within `budget`."""
    return {"dependency_tasks": dependency_lines(dependency_tasks(task, plan), results or []),
            **dependency_code(task, plan, workspace, budget), "own_files": own_files(task, workspace)}
