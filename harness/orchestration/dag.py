"""DagEngine: task readiness, status marking, blocking propagation, topological order."""

from __future__ import annotations

from harness.errors import PlanError
from harness.models.enums import TaskStatus
from harness.models.tasks import Task
from harness.validation.plan_validator import find_cycle

_TERMINAL_BAD = {TaskStatus.FAILED, TaskStatus.TIMED_OUT, TaskStatus.BLOCKED}
_DONE = {TaskStatus.COMPLETED} | _TERMINAL_BAD


class DagEngine:
    """Sequential DAG over `tasks` (statuses are mutated in place). Raises PlanError on a cycle."""

    def __init__(self, tasks: list[Task]):
        cycle = find_cycle(tasks)
        if cycle:
            raise PlanError("dependency cycle: " + " -> ".join(cycle))
        self.tasks = {t.id: t for t in tasks}
        unknown = sorted({d for t in tasks for d in t.depends_on if d not in self.tasks})
        if unknown:
            raise PlanError(f"unknown dependencies: {', '.join(unknown)}")

    def status(self, task_id: str) -> TaskStatus:
        return self.tasks[task_id].status

    def mark(self, task_id: str, status: TaskStatus) -> None:
        if task_id not in self.tasks:
            raise PlanError(f"unknown task {task_id}")
        self.tasks[task_id].status = status

    def get_ready(self) -> list[Task]:
        """PENDING tasks whose dependencies are all COMPLETED, by id."""
        return [t for tid, t in sorted(self.tasks.items())
                if t.status in (TaskStatus.PENDING, TaskStatus.READY)
                and all(self.tasks[d].status == TaskStatus.COMPLETED for d in t.depends_on)]

    def blocked_propagation(self) -> list[str]:
        """Mark PENDING tasks with a failed/timed-out/blocked dependency BLOCKED; return their ids."""
        newly: list[str] = []
        changed = True
        while changed:
            changed = False
            for tid, task in sorted(self.tasks.items()):
                if task.status in (TaskStatus.PENDING, TaskStatus.READY) and any(
                        self.tasks[d].status in _TERMINAL_BAD for d in task.depends_on):
                    task.status = TaskStatus.BLOCKED
                    newly.append(tid)
                    changed = True
        return newly

    def is_done(self) -> bool:
        return all(t.status in _DONE for t in self.tasks.values())

    def topological_order(self) -> list[str]:
        """Kahn's algorithm; ties broken by task id, so the order is stable."""
        remaining = {tid: set(t.depends_on) for tid, t in self.tasks.items()}
        order: list[str] = []
        while remaining:
            ready = sorted(tid for tid, deps in remaining.items() if not deps)
            if not ready:
                raise PlanError("dependency cycle among " + ", ".join(sorted(remaining)))
            tid = ready[0]
            order.append(tid)
            del remaining[tid]
            for deps in remaining.values():
                deps.discard(tid)
        return order
