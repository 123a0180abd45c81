"""Planner: AppSpec -> validated task DAG (LLM plan repaired deterministically, else fallback)."""

from __future__ import annotations

import json

from harness.agents.ask import ask
from harness.agents.contract import CONTRACT, PROBES
from harness.agents.data_model_text import entity_line, format_for
from harness.errors import HarnessError, PlanError
from harness.models.spec import AppSpec
from harness.models.tasks import Plan, Task
from harness.providers.base import LLMProvider, has_model
from harness.providers.extract import extract_json
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


def probe_errors(plan: Plan, spec: AppSpec) -> list[str]:
    known = {r.id for r in spec.requirements}
    return [f"probe {p.name!r} refers to unknown requirement {p.requirement}"
            for p in plan.probes if p.requirement and p.requirement not in known]


def offline_decision(spec: AppSpec, plan: Plan) -> tuple[bool, str]:
    """May this run replace an unusable model answer by the generator's files? (spec + plan)"""
    from harness.offline.generator import generate_files

    if plan.source == "fallback":
        return True, "the plan is the offline generator's: its files are the fallback"
    try:
        offline = generate_files(spec)
    except HarnessError as exc:
        return False, f"the offline generator cannot build this spec ({exc})"
    foreign = sorted({p for t in plan.tasks for p in t.files_touched if p not in offline})
    if foreign:
        return False, ("the model's plan has files the offline generator does not write ("
                       + ", ".join(foreign[:5]) + (" …" if len(foreign) > 5 else "") + "): an unusable answer fails the task")
    return True, "every planned file is one the offline generator writes for this spec"


def parse_plan(text: str, spec: AppSpec) -> Plan:
    """The model's plan, reordered and validated; ValueError listing every problem."""
    plan = Plan.model_validate(extract_json(text))
    try:
        tasks = repair_order(plan.tasks)
    except PlanError as exc:
        raise ValueError(str(exc)) from None
    fixed = plan.model_copy(update={"tasks": tasks, "source": "llm", "warnings": plan_warnings(tasks)})
    errors = validate_plan(tasks, spec) + probe_errors(fixed, spec)
    if errors:
        raise ValueError("LLM plan invalid: " + "; ".join(errors))
    return fixed


class Planner:
    """plan(spec) -> Plan; `source` says whether the LLM's plan or the fallback was used."""

    def __init__(self, llm: LLMProvider):
        self.llm = llm
        self.fallback_reason = ""

    def prompt(self, spec: AppSpec) -> str:
        summary = spec.model_dump(mode="json", include={"app_type", "stack", "auth", "requirements"})
        # the data model one line an entity (lossless, ~1/6 of its JSON: 13 k -> 2 k characters at 20 entities)
        summary |= {"data_model": [entity_line(e) for e in spec.data_model], "data_model_format": format_for(spec.data_model)}
        return ("Spec:\n" + json.dumps(summary, indent=1) + f"\n\n{CONTRACT}\n\n{PROBES}\n"
                "\nReturn the plan JSON.")

    def plan(self, spec: AppSpec) -> Plan:
        answer = ask(self.llm, "planner", self.prompt(spec), lambda text: parse_plan(text, spec),
                     lambda: fallback_plan(spec), system=SYSTEM, schema=Plan, stage="plan", fallback_tool="fallback")
        self.fallback_reason = answer.reason
        plan = answer.value
        if has_model(self.llm):
            plan.offline_fallback, plan.offline_note = offline_decision(spec, plan)
        return plan


__all__ = ["Planner", "fallback_plan", "offline_decision", "parse_plan", "repair_order", "ordering_errors"]
