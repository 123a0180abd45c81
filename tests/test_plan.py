"""PlanValidator, DagEngine and the planner (SPEC M3)."""

import pytest

from harness.agents.planner import Planner, fallback_plan, repair_order
from harness.errors import PlanError
from harness.models import Plan, Task, TaskStatus
from harness.orchestration.dag import DagEngine
from harness.providers.mock import MockProvider
from harness.validation.plan_validator import topological_order, validate_plan
from test_spec_validator import valid_todo


def t(tid, deps=(), files=("src/x.py",), reqs=("REQ-001",), ver=("pytest -q",)):
    return Task(id=tid, description=tid, depends_on=list(deps), files_touched=list(files),
                requirements=list(reqs), verification=list(ver))


def test_fallback_plan_for_todo_has_5_to_8_valid_tasks_covering_all_reqs():
    spec = valid_todo()
    plan = fallback_plan(spec)
    assert 5 <= len(plan.tasks) <= 8
    assert validate_plan(plan.tasks, spec) == []
    assert {r for task in plan.tasks for r in task.requirements} == {r.id for r in spec.requirements}
    assert [task.id for task in plan.tasks] == [f"TASK-{n:03d}" for n in range(1, len(plan.tasks) + 1)]


def test_fallback_plan_lists_every_generated_file():
    from harness.offline.generator.units import generate_files

    spec = valid_todo()
    touched = {f for task in fallback_plan(spec).tasks for f in task.files_touched}
    assert set(generate_files(spec)) <= touched


def test_fallback_plan_is_byte_identical():
    assert fallback_plan(valid_todo()).model_dump_json() == fallback_plan(valid_todo()).model_dump_json()


@pytest.mark.parametrize("tasks, expected", [
    ([t("TASK-001"), t("TASK-001")], "duplicate task id"),
    ([t("TASK-001", deps=["TASK-009"])], "unknown task TASK-009"),
    ([t("TASK-001", deps=["TASK-002"]), t("TASK-002", deps=["TASK-001"])], "dependency cycle"),
    ([t("TASK-001", reqs=())], "has no requirement"),
    ([t("TASK-001", files=())], "touches no file"),
    ([t("TASK-001", ver=())], "no verification"),
    ([t("TASK-001", files=("../evil.py",))], "escapes the workspace"),
    ([t("TASK-001", files=("/etc/passwd",))], "absolute path"),
    ([t("TASK-001", files=("a\\b.py",))], "not a POSIX path"),
    ([t("TASK-001", deps=["TASK-002"]), t("TASK-002")], "depends on later task"),
    ([t("TASK-001", files=("src/api_todo.py",)), t("TASK-002", files=("src/models.py",))], "schema first"),
    ([t("TASK-001", files=("src/a.py", "src/b.py", "src/c.py", "src/d.py", "src/e.py", "src/f.py"))], "max 5"),
])
def test_validator_rejects(tasks, expected):
    errors = validate_plan(tasks)
    assert any(expected in e for e in errors), errors


def test_orphan_requirement_detected():
    spec = valid_todo()
    errors = validate_plan([t("TASK-001", reqs=("REQ-001",))], spec)
    assert any("orphan requirement REQ-004" in e for e in errors)


def test_dag_ready_block_and_order_from_a_status_mapping():
    tasks = [t("TASK-001"), t("TASK-002", deps=["TASK-001"]), t("TASK-003", deps=["TASK-002"]), t("TASK-004")]
    before = [x.model_dump() for x in tasks]
    dag = DagEngine(tasks)
    assert [x.id for x in dag.ready({})] == ["TASK-001", "TASK-004"]
    statuses = {"TASK-001": TaskStatus.FAILED}
    assert dag.to_block(statuses) == ["TASK-002", "TASK-003"]
    assert not dag.is_done(statuses)
    statuses.update({"TASK-002": TaskStatus.BLOCKED, "TASK-003": TaskStatus.BLOCKED, "TASK-004": TaskStatus.COMPLETED})
    assert dag.is_done(statuses)
    assert dag.topological_order() == ["TASK-001", "TASK-002", "TASK-003", "TASK-004"]
    assert dag.dependents("TASK-001") == ["TASK-002", "TASK-003"]
    assert [x.model_dump() for x in tasks] == before, "the plan is an input: the DAG never mutates it"


@pytest.mark.parametrize("bad", [TaskStatus.FAILED, TaskStatus.TIMED_OUT, TaskStatus.BLOCKED])
def test_a_bad_dependency_blocks_its_waiting_dependents(bad):
    dag = DagEngine([t("TASK-001"), t("TASK-002", deps=["TASK-001"]), t("TASK-003", deps=["TASK-001"])])
    assert dag.to_block({"TASK-001": bad, "TASK-003": TaskStatus.COMPLETED}) == ["TASK-002"]


def test_topological_order_tie_key_keeps_a_given_position():
    tasks = [t("TASK-009"), t("TASK-001", deps=["TASK-009"]), t("TASK-005")]
    position = {x.id: i for i, x in enumerate(tasks)}
    assert topological_order(tasks) == ["TASK-005", "TASK-009", "TASK-001"]
    assert topological_order(tasks, tie_key=position.__getitem__) == ["TASK-009", "TASK-001", "TASK-005"]


def test_dag_rejects_cycles():
    with pytest.raises(PlanError, match="cycle"):
        DagEngine([t("TASK-001", deps=["TASK-002"]), t("TASK-002", deps=["TASK-001"])])


def test_llm_plan_out_of_order_is_repaired_deterministically():
    tasks = [t("TASK-001", files=("src/api_todo.py",), deps=["TASK-002"]), t("TASK-002", files=("src/models.py",))]
    fixed = repair_order(tasks)
    assert [x.files_touched[0] for x in fixed] == ["src/models.py", "src/api_todo.py"]
    assert fixed[1].depends_on == ["TASK-001"]
    assert validate_plan(fixed) == []


def test_planner_uses_valid_llm_plan_and_falls_back_on_garbage():
    spec = valid_todo()
    good = Plan(tasks=[t("TASK-001", files=("src/models.py",), reqs=("REQ-001", "REQ-002")),
                       t("TASK-002", files=("src/main.py",), deps=["TASK-001"], reqs=("REQ-003", "REQ-004"))])
    assert Planner(MockProvider(script=[good.model_dump_json()])).plan(spec).source == "llm"
    planner = Planner(MockProvider(script=["Sure! Here is the plan: step 1..."]))
    plan = planner.plan(spec)
    assert plan.source == "fallback" and planner.fallback_reason
