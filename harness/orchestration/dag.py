"""DagEngine: readiness, blocking and order of the plan's tasks, computed from a status mapping.

The plan is an input and never changes; task statuses live only in RunState.task_results. Every
method takes that mapping (task id -> TaskStatus; a missing id counts as PENDING) and returns an
answer without mutating anything.
"""

from __future__ import annotations

from collections.abc import Mapping

from harness.errors import PlanError
from harness.models.enums import TaskStatus
from harness.models.tasks import Task
from harness.validation.plan_validator import find_cycle, topological_order

Statuses = Mapping[str, TaskStatus]
_TERMINAL_BAD = {TaskStatus.FAILED, TaskStatus.TIMED_OUT, TaskStatus.BLOCKED}
_DONE = {TaskStatus.COMPLETED} | _TERMINAL_BAD
_WAITING = {TaskStatus.PENDING, TaskStatus.READY}


class DagEngine:
    """Sequential DAG over an immutable task list. Raises PlanError on a cycle or unknown dependency."""

    def __init__(self, tasks: list[Task]):
        cycle = find_cycle(tasks)
        if cycle:
            raise PlanError("dependency cycle: " + " -> ".join(cycle))
        self.tasks = {t.id: t for t in tasks}
        unknown = sorted({d for t in tasks for d in t.depends_on if d not in self.tasks})
        if unknown:
            raise PlanError(f"unknown dependencies: {', '.join(unknown)}")

    def _status(self, statuses: Statuses, task_id: str) -> TaskStatus:
        return statuses.get(task_id, TaskStatus.PENDING)

    def ready(self, statuses: Statuses) -> list[Task]:
        """Waiting tasks whose dependencies are all COMPLETED, by id."""
        return [t for tid, t in sorted(self.tasks.items())
                if self._status(statuses, tid) in _WAITING
                and all(self._status(statuses, d) == TaskStatus.COMPLETED for d in t.depends_on)]

    def to_block(self, statuses: Statuses) -> list[str]:
        """Waiting tasks with a failed, timed-out or blocked dependency, transitively, by id."""
        bad = {tid for tid in self.tasks if self._status(statuses, tid) in _TERMINAL_BAD}
        newly: list[str] = []
        changed = True
        while changed:
            changed = False
            for tid, task in sorted(self.tasks.items()):
                if tid not in bad and self._status(statuses, tid) in _WAITING and bad & set(task.depends_on):
                    bad.add(tid)
                    newly.append(tid)
                    changed = True
        return sorted(newly)

    def dependents(self, task_id: str) -> list[str]:
        """Every task that depends on `task_id`, transitively, by id."""
        out: set[str] = set()
        frontier = {task_id}
        while frontier:
            frontier = {tid for tid, t in self.tasks.items() if tid not in out and frontier & set(t.depends_on)}
            out |= frontier
        return sorted(out)

    def is_done(self, statuses: Statuses) -> bool:
        return all(self._status(statuses, tid) in _DONE for tid in self.tasks)

    def topological_order(self) -> list[str]:
        """Dependencies first; ties broken by task id, so the order is stable."""
        return topological_order(list(self.tasks.values()))
