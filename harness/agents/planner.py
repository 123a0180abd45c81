"""Planner: AppSpec -> validated task DAG (LLM plan repaired deterministically, else fallback)."""

from __future__ import annotations

import json

from harness.errors import PlanError, ProviderConfigError, ProviderError, ProviderUnavailableError
from harness.models.spec import AppSpec
from harness.models.tasks import Plan, Task
from harness.providers.base import LLMProvider
from harness.providers.budget import for_agent
from harness.utils.ids import task_id
from harness.utils.workspace_layout import LAYER_NEEDS, layer
from harness.validation.plan_validator import (
    ancestors, find_cycle, ordering_errors, plan_warnings, topological_order, validate_plan)

SYSTEM = (
    "You are the planner of an app-building harness. Output ONLY a JSON object {\"tasks\": [...]} "
    "matching the Plan schema. Tasks TASK-001.. in execution order; each touches 1-5 relative POSIX "
    "files, covers >=1 requirement id, has >=1 verification command (e.g. 'python -m pytest -q "
    "tests/test_x.py'), depends only on earlier tasks; schema before logic, auth before protected routes."
)


def fallback_plan(spec: AppSpec) -> Plan:
    """The deterministic plan: one task per generator build unit, in the units' order."""
    from harness.offline.generator import build_units

    units = build_units(spec)
    ids = {u.key: task_id(n) for n, u in enumerate(units, start=1)}
    tasks = [Task(id=ids[u.key], description=u.description, kind=u.key,
                  depends_on=sorted(ids[d] for d in u.depends_on),
                  files_touched=list(u.files), requirements=list(u.requirements),
                  verification=list(u.verification)) for u in units]
    return Plan(tasks=tasks, warnings=plan_warnings(tasks), source="fallback")


def repair_order(tasks: list[Task]) -> list[Task]:
    """Renumber tasks in a stable topological order and add missing schema/auth dependencies."""
    if find_cycle(tasks):
        raise PlanError("the plan has a dependency cycle; it cannot be reordered")
    position = {t.id: i for i, t in enumerate(tasks)}
    order = topological_order(tasks, tie_key=position.__getitem__)
    rename = {old: task_id(n) for n, old in enumerate(order, start=1)}
    by_old = {t.id: t for t in tasks}
    fixed = []
    for old in order:
        t = by_old[old].model_copy(deep=True)
        t.id = rename[old]
        t.depends_on = sorted({rename[d] for d in t.depends_on if d in rename})
        fixed.append(t)
    return _add_role_dependencies(fixed)


def _add_role_dependencies(tasks: list[Task]) -> list[Task]:
    by_id = {t.id: t for t in tasks}
    for i, task in enumerate(tasks):
        roles = {layer(p) for p in task.files_touched}
        for earlier in tasks[:i]:
            earlier_roles = {layer(p) for p in earlier.files_touched}
            if any(need in earlier_roles for role in roles for need in LAYER_NEEDS.get(role, ())):
                if earlier.id not in ancestors(task.id, by_id):
                    task.depends_on = sorted(set(task.depends_on) | {earlier.id})
    return tasks


class Planner:
    """plan(spec) -> Plan; `source` says whether the LLM's plan or the fallback was used."""

    def __init__(self, llm: LLMProvider):
        self.llm = for_agent(llm, "planner")
        self.fallback_reason = ""

    def prompt(self, spec: AppSpec) -> str:
        summary = spec.model_dump(mode="json", include={"app_type", "stack", "auth", "data_model", "requirements"})
        return "Spec:\n" + json.dumps(summary, indent=1) + "\nReturn the plan JSON."

    def plan(self, spec: AppSpec) -> Plan:
        try:
            plan = self.llm.generate_structured(self.prompt(spec), Plan, system=SYSTEM)
        except (ProviderConfigError, ProviderUnavailableError):
            raise
        except ProviderError as exc:
            self.fallback_reason = str(exc)
            return fallback_plan(spec)
        try:
            tasks = repair_order(plan.tasks)
        except PlanError as exc:
            self.fallback_reason = str(exc)
            return fallback_plan(spec)
        errors = validate_plan(tasks, spec)
        if errors:
            self.fallback_reason = "LLM plan invalid: " + "; ".join(errors[:5])
            return fallback_plan(spec)
        return Plan(tasks=tasks, warnings=plan_warnings(tasks), source="llm")


__all__ = ["Planner", "fallback_plan", "repair_order", "ordering_errors"]
